// The Python client's types (clients/python/agent_studio/_types.py) are generated from the OpenAPI document of the
// route table by scripts/python-types.mjs: the committed file must be what the script prints now, so a changed
// route, schema or answer shows up here until the file is regenerated (and the Python client's tests run on it).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PYTHON_ROUTES, renderPythonTypes, snakeCase, TYPES_FILE } from '../../../scripts/python-types.mjs';
import { API_ROUTES } from '../../../src/shared/api/index.js';

describe('the Python client types', () => {
  it('the committed _types.py is what scripts/python-types.mjs generates from the route table now', () => {
    const committed = fs.readFileSync(TYPES_FILE, 'utf8');
    // On a difference: node --import tsx scripts/python-types.mjs --write
    expect(committed).toBe(renderPythonTypes());
  });

  it('names each route the client calls by the route table, with its method, path and success answers', () => {
    const text = renderPythonTypes();
    for (const name of Object.keys(PYTHON_ROUTES)) {
      const route = API_ROUTES[name as keyof typeof API_ROUTES];
      expect(text).toContain(`"${name}": Route("${route.method}", "${route.path.replace(/:(\w+)/g, '{$1}')}", {`);
    }
    expect(text).toContain('"login": Route("POST", "/api/login", {200: StorageState, 202: LoginAccepted}),');
    expect(text).toContain('"cancelLogin": Route("POST", "/api/login/{id}/cancel", {204: None}),');
  });

  it('renders schemas as TypedDicts: required and optional keys, nullable, literal and nested types', () => {
    const text = renderPythonTypes();
    // Required keys in a base class, optional ones (total=False) in the class named after the schema.
    expect(text).toMatch(/class _LoginRunRequired\(TypedDict\):\n(?: {4}.*\n)*? {4}finished_at: Optional\[float\]/);
    expect(text).toMatch(/class LoginRun\(_LoginRunRequired, total=False\):\n(?: {4}.*\n)*? {4}takeover_url: str/);
    expect(text).toContain('    status: Literal["running", "needs_person", "succeeded", "failed", "cancelled"]');
    expect(text).toContain('    typed: Literal[True]');
    expect(text).toContain('    cookies: list[Cookie]');
    // A key that is a Python keyword (async) takes the functional syntax.
    expect(text).toContain('        "async": bool,');
    // The keyword arguments: snake_case names mapped to the JSON fields, without the fields the client sets.
    expect(text).toContain('        "login_method": "loginMethod",');
    expect(text).not.toMatch(/"async_?": "async"/);
    expect(text).toContain('DEFAULT_BASE_URL = "http://127.0.0.1:4780"');
  });

  it('snake_cases JSON fields the Python way, keywords with a trailing underscore', () => {
    expect(snakeCase('loginMethod')).toBe('login_method');
    expect(snakeCase('healthCheckIntervalSec')).toBe('health_check_interval_sec');
    expect(snakeCase('credential_id')).toBe('credential_id');
    expect(snakeCase('async')).toBe('async_');
  });
});
