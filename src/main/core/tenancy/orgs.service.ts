import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';

export interface Org {
  id: string;
  name: string;
  created_at: number;
}

export class OrgsService {
  constructor(private readonly deps: { db: Db }) {}

  list(): Org[] {
    return this.deps.db.prepare('SELECT id, name, created_at FROM orgs ORDER BY created_at, name').all() as Org[];
  }

  get(id: string): Org | undefined {
    return this.deps.db.prepare('SELECT id, name, created_at FROM orgs WHERE id = ?').get(id) as Org | undefined;
  }

  findByName(name: string): Org | undefined {
    return this.deps.db.prepare('SELECT id, name, created_at FROM orgs WHERE name = ?').get(name) as Org | undefined;
  }

  /** By id or by name. */
  resolve(ref: string): Org | undefined {
    return this.get(ref) ?? this.findByName(ref);
  }

  create(name: string): Org {
    const clean = name.trim();
    if (!/^[\w .@-]{1,64}$/.test(clean)) {
      throw new AppError(
        400,
        'validation_error',
        'An organization name is 1-64 letters, digits, spaces, dots, dashes, @ or underscores.',
      );
    }
    if (this.findByName(clean)) throw new AppError(409, 'conflict', `An organization named "${clean}" already exists.`);
    const org: Org = { id: newId('org', 12), name: clean, created_at: Date.now() };
    this.deps.db
      .prepare('INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)')
      .run(org.id, org.name, org.created_at);
    return org;
  }

  ensure(name: string): Org {
    return this.findByName(name.trim()) ?? this.create(name);
  }
}
