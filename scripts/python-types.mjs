#!/usr/bin/env node
// The Python client's types (clients/python/agent_studio/_types.py), generated from the OpenAPI document the server
// renders from the route table (src/shared/api, src/main/core/http/openapi.ts), so they cannot drift from it:
// TypedDicts of the request bodies and answers of the routes the client calls, its route table (method, path, the
// TypedDict of each success answer), snake_case keyword arguments for the bodies it takes as such, and the default
// base URL. `test/unit/scripts/python-types.test.ts` fails while the committed file differs from what this prints.
//   node --import tsx scripts/python-types.mjs           print it
//   node --import tsx scripts/python-types.mjs --write   write it
// (tsx: the document is built from the TypeScript route table itself.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenApiDocument } from '../src/main/core/http/openapi.ts';
import { API_ROUTES } from '../src/shared/api/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TYPES_FILE = path.join(ROOT, 'clients', 'python', 'agent_studio', '_types.py');

/**
 * The routes the Python client calls, by their name in the route table. `params`: the body is taken as keyword
 * arguments, `client.login(login_method=...)`, typed by a generated TypedDict of that name; `omit`: body fields the
 * client sets itself (async: start_login sends it).
 */
export const PYTHON_ROUTES = {
  login: { params: 'LoginParams', omit: ['async'] },
  loginStatus: {},
  loginState: {},
  typeLoginCode: {},
  cancelLogin: {},
  loginMethods: {},
  refresh: { params: 'RefreshParams' },
  listCredentials: {},
  getCredential: {},
  credentialUses: {},
  listSessions: {},
  deleteSession: {},
  validateSession: {},
};

const PY_KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from ' +
    'global if import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);
const isIdentifier = (key) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !PY_KEYWORDS.has(key);
const pascal = (s) => s.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_m, _sep, c) => c.toUpperCase());
/** loginMethod -> login_method; a Python keyword gets a trailing underscore. */
export const snakeCase = (key) => {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return PY_KEYWORDS.has(snake) ? `${snake}_` : snake;
};
/** A Python string literal (JSON's escapes are Python's). */
const str = (s) => JSON.stringify(s);
/** A JSON value as a Python literal (in Literal[...]). */
const literal = (v) => (v === true ? 'True' : v === false ? 'False' : v === null ? 'None' : JSON.stringify(v));

/** Text wrapped to `width` columns, each line prefixed with `indent`. */
function wrap(text, indent, width = 110) {
  const lines = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** A docstring's lines (backslashes, triple quotes and a quote next to its own made safe). */
function docstring(text, indent) {
  const safe = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').replace(/^"/, '\\"');
  const lines = wrap(safe, indent);
  if (lines.length === 1) return [`${indent}"""${lines[0].trimStart().replace(/"$/, '\\"')}"""`];
  return [`${indent}"""${lines[0].trimStart()}`, ...lines.slice(1), `${indent}"""`];
}

/** Renders the TypedDicts of a document's schemas, each after those it uses. */
class PythonTypes {
  constructor(doc) {
    this.components = doc.components.schemas;
    this.blocks = [];
    this.done = new Set();
    this.pending = new Set();
  }

  /** The Python type of a schema; objects with properties become TypedDicts named `name`. */
  type(schema, name) {
    if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return 'Any';
    if (schema.$ref) return this.component(schema.$ref.replace('#/components/schemas/', ''));
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return this.union(union.map((s, i) => this.type(s, `${name}${i}`)));
    if ('const' in schema) return `Literal[${literal(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map(literal).join(', ')}]`;
    if (Array.isArray(schema.type)) return this.union(schema.type.map((t) => this.type({ ...schema, type: t }, name)));
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'number':
        return 'float';
      case 'integer':
        return 'int';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `list[${this.type(schema.items, `${name}Item`)}]`;
      case 'object':
        if (schema.properties) return this.define(name, schema);
        if (schema.additionalProperties && Object.keys(schema.additionalProperties).length)
          return `dict[str, ${this.type(schema.additionalProperties, `${name}Value`)}]`;
        return 'dict[str, Any]';
      default:
        return 'Any';
    }
  }

  union(types) {
    const unique = [...new Set(types)];
    const some = unique.filter((t) => t !== 'None');
    const inner = some.length === 1 ? some[0] : `Union[${some.join(', ')}]`;
    return unique.includes('None') ? `Optional[${inner}]` : inner;
  }

  component(id) {
    const schema = this.components[id];
    if (!schema) throw new Error(`the document references a schema it does not hold: ${id}`);
    if (schema.type !== 'object' || !schema.properties) return this.type(schema, id);
    return this.define(id, schema);
  }

  /**
   * Defines the TypedDict `name` (once), after the types it uses; returns its name (quoted inside a cycle). `keyOf`
   * renames its keys; `nameBase` names its inline objects (a params TypedDict shares its body's).
   */
  define(name, schema, keyOf = (k) => k, nameBase = name) {
    if (this.done.has(name)) return name;
    if (this.pending.has(name)) return str(name);
    this.pending.add(name);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties).map(([key, s]) => ({
      key: keyOf(key),
      type: this.type(s, `${nameBase}${pascal(key)}`),
      doc: s.description,
      required: required.has(key),
    }));
    this.blocks.push(typedDict(name, fields, schema.description));
    this.pending.delete(name);
    this.done.add(name);
    return name;
  }

  text() {
    return this.blocks.join('\n\n\n');
  }
}

/** A TypedDict: required and optional keys (a base of each when both), class syntax where every key allows it. */
function typedDict(name, fields, description) {
  const req = fields.filter((f) => f.required);
  const opt = fields.filter((f) => !f.required);
  const out = [];
  const part = (partName, partFields, total, bases = 'TypedDict') => {
    if (partFields.every((f) => isIdentifier(f.key))) {
      out.push(`class ${partName}(${bases}${total ? '' : ', total=False'}):`);
      if (partName === name && description) out.push(...docstring(description, '    '), '');
      for (const f of partFields) {
        out.push(`    ${f.key}: ${f.type}`);
        if (f.doc) out.push(...docstring(f.doc, '    '));
      }
      if (!partFields.length && !(partName === name && description)) out.push('    pass');
      return;
    }
    // A key that is no Python name (`async`): the functional syntax, its descriptions as comments.
    if (partName === name && description) out.push(...wrap(description, '# '));
    out.push(`${partName} = TypedDict(`, `    ${str(partName)},`, '    {');
    for (const f of partFields) {
      if (f.doc) out.push(...wrap(f.doc, '        # '));
      out.push(`        ${str(f.key)}: ${f.type},`);
    }
    out.push('    },', ...(total ? [] : ['    total=False,']), ')');
  };
  if (!opt.length) part(name, req, true);
  else if (!req.length) part(name, opt, false);
  else if (opt.every((f) => isIdentifier(f.key))) {
    part(`_${name}Required`, req, true);
    out.push('', '');
    part(name, opt, false, `_${name}Required`);
  } else {
    part(`_${name}Required`, req, true);
    out.push('', '');
    part(`_${name}Optional`, opt, false);
    out.push('', '', `class ${name}(_${name}Required, _${name}Optional):`);
    out.push(...(description ? docstring(description, '    ') : ['    pass']));
  }
  return out.join('\n');
}

const jsonSchemaOf = (content) => content?.['application/json']?.schema;

/** The text of _types.py for `doc` (default: the document the server serves). */
export function renderPythonTypes(doc = new OpenApiDocument().document({ version: '0' })) {
  const types = new PythonTypes(doc);
  const routes = [];
  const bodyFields = [];
  for (const [name, opts] of Object.entries(PYTHON_ROUTES)) {
    const route = API_ROUTES[name];
    if (!route) throw new Error(`PYTHON_ROUTES names ${name}, which the route table does not have`);
    const docPath = route.path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{key}');
    const op = doc.paths[docPath]?.[route.method.toLowerCase()];
    if (!op) throw new Error(`the OpenAPI document has no ${route.method} ${docPath}`);
    const answers = Object.entries(op.responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .map(([status, r]) => {
        const schema = jsonSchemaOf(r.content);
        return `${status}: ${schema ? types.type(schema, `${pascal(name)}Answer`) : 'None'}`;
      });
    routes.push(`    ${str(name)}: Route(${str(route.method)}, ${str(docPath)}, {${answers.join(', ')}}),`);
    if (opts.params) {
      const body = jsonSchemaOf(op.requestBody?.content);
      const ref = body?.$ref?.replace('#/components/schemas/', '');
      const bodyName = ref ?? `${pascal(name)}Body`;
      const schema = ref ? doc.components.schemas[ref] : body;
      types.type(schema, bodyName);
      const properties = Object.fromEntries(
        Object.entries(schema.properties).filter(([key]) => !(opts.omit ?? []).includes(key)),
      );
      const description = `Keyword arguments of ${name} (the JSON body's fields, in snake_case): ${route.summary}.`;
      types.define(opts.params, { properties, description }, snakeCase, bodyName);
      const pairs = Object.keys(properties).map((key) => `        ${str(snakeCase(key))}: ${str(key)},`);
      bodyFields.push(`    ${str(name)}: {`, ...pairs, '    },');
    }
  }
  const body = types.text();
  // Python 3.9 evaluates these at import: dict[...] and list[...] work there, `X | None` does not (Optional does).
  const typing = ['Any', 'Literal', 'NamedTuple', 'Optional', 'TypedDict', 'Union'].filter(
    (n) => n === 'Any' || n === 'NamedTuple' || new RegExp(`\\b${n}\\b`).test(body),
  );
  return [
    '# Generated by scripts/python-types.mjs from the OpenAPI document of the route table (src/shared/api): do not edit.',
    '# Regenerate with `node --import tsx scripts/python-types.mjs --write`; test/unit/scripts/python-types.test.ts',
    '# fails while this file differs from what the script prints.',
    `from typing import ${typing.join(', ')}`,
    '',
    '# The server the client talks to unless told otherwise (the app’s default address).',
    `DEFAULT_BASE_URL = ${str(doc.servers[0].url)}`,
    '',
    '',
    body,
    '',
    '',
    'class Route(NamedTuple):',
    '    """A route of the API: its method, its path ({id} for the path parameter) and its success answers."""',
    '',
    '    method: str',
    '    path: str',
    '    answers: dict[int, Any]',
    '    """Each success status with the TypedDict of its JSON answer (None: no body)."""',
    '',
    '',
    '# The routes the client calls, by their name in the route table.',
    'ROUTES: dict[str, Route] = {',
    ...routes,
    '}',
    '',
    '# The keyword arguments of the routes that take their body as such: Python name -> JSON field.',
    'BODY_FIELDS: dict[str, dict[str, str]] = {',
    ...bodyFields,
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = renderPythonTypes();
  if (process.argv.includes('--write')) {
    fs.writeFileSync(TYPES_FILE, text);
    process.stderr.write(`wrote ${path.relative(ROOT, TYPES_FILE)}\n`);
  } else process.stdout.write(text);
}
