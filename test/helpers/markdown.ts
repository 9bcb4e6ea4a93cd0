// What the docs tests read out of a Markdown file: its headings (as GitHub anchors them), its links, its fenced code
// blocks. A few lines of scanning, not a Markdown parser: the docs use ATX headings, inline links and fenced blocks,
// and a link or heading this misses is one the tests below would report as missing, never one they pass silently.
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { REPO_ROOT } from './repo-root.js';

export interface CodeBlock {
  /** The info string after the opening fence, e.g. `sh runnable`. */
  info: string;
  /** The block's text, its indentation (a block inside a list item) taken off. */
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface MarkdownLink {
  target: string;
  line: number;
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

interface Scanned {
  lines: { line: string; inCode: boolean }[];
  blocks: CodeBlock[];
}

/** The lines of a Markdown text, each marked whether it is in a fenced code block (fences included), and the blocks. */
function scan(text: string): Scanned {
  const lines: Scanned['lines'] = [];
  const blocks: CodeBlock[] = [];
  let open: { indent: string; fence: string; info: string; line: number; body: string[] } | null = null;
  text.split('\n').forEach((line, i) => {
    const m = FENCE.exec(line);
    if (!open) {
      if (m) open = { indent: m[1], fence: m[2], info: m[3].trim(), line: i + 1, body: [] };
      lines.push({ line, inCode: !!m });
      return;
    }
    lines.push({ line, inCode: true });
    if (m && m[2][0] === open.fence[0] && m[2].length >= open.fence.length && m[3].trim() === '') {
      blocks.push({ info: open.info, code: open.body.join('\n'), line: open.line });
      open = null;
    } else open.body.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line.trimStart());
  });
  return { lines, blocks };
}

/** A heading's text as GitHub renders it before making the anchor: links and HTML reduced to their text. */
const headingText = (raw: string) =>
  raw
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();

/** The anchors of a file's headings, in order, as GitHub makes them (github-slugger: `-1`, `-2` for repeats). */
export function headingAnchors(text: string): string[] {
  const slugger = new GithubSlugger();
  return scan(text)
    .lines.filter((l) => !l.inCode)
    .map((l) => /^ {0,3}#{1,6}\s+(.+)$/.exec(l.line)?.[1])
    .filter((h): h is string => h !== undefined)
    .map((h) => slugger.slug(headingText(h)));
}

/** Every link and image target of the text outside code blocks and code spans: `[text](target)`, `<a href>`, `<img src>`. */
export function linksOf(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  scan(text).lines.forEach(({ line, inCode }, i) => {
    if (inCode) return;
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: m[1], line: i + 1 });
    for (const m of prose.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g))
      links.push({ target: m[1], line: i + 1 });
  });
  return links;
}

/** The fenced code blocks of the text. */
export const codeBlocksOf = (text: string): CodeBlock[] => scan(text).blocks;

/** Is `target` a link into this repository (not a URL of another site, a mail address or a page anchor alone)? */
export const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//');

/** The Markdown files whose links must hold: README.md, the guides, the clients' READMEs, the benchmark history. */
export function docFiles(): string[] {
  const under = (dir: string) =>
    fs.existsSync(path.join(REPO_ROOT, dir))
      ? fs
          .readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.md'))
          .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
      : [];
  const clients = fs.existsSync(path.join(REPO_ROOT, 'clients'))
    ? fs
        .readdirSync(path.join(REPO_ROOT, 'clients'))
        .map((c) => `clients/${c}/README.md`)
        .filter((f) => fs.existsSync(path.join(REPO_ROOT, f)))
    : [];
  return ['README.md', ...under('docs'), ...under('bench/results'), ...clients].sort();
}
