import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder with the shipped resources (templates/, characters/): $AGENT_STUDIO_RESOURCES_DIR, the
 * packaged app's resources folder, or the nearest `resources/` above this file (source and build trees).
 */
export function resolveResourcesDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.AGENT_STUDIO_RESOURCES_DIR) return path.resolve(env.AGENT_STUDIO_RESOURCES_DIR);
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && fs.existsSync(path.join(packaged, 'resources', 'templates'))) return path.join(packaged, 'resources');
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'resources');
    if (fs.existsSync(path.join(candidate, 'templates'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The parsed `*.json` files of a resources subfolder, in file-name order (unreadable files are reported). */
export function readJsonResources(dir: string | null, sub: string): { file: string; value: unknown; error?: string }[] {
  if (!dir) return [];
  const folder = path.join(dir, sub);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(folder, f);
      try {
        return { file, value: JSON.parse(fs.readFileSync(file, 'utf8')) as unknown };
      } catch (err) {
        return { file, value: null, error: (err as Error).message };
      }
    });
}
