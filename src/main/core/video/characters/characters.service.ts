import fs from 'node:fs';
import path from 'node:path';
import type { Character, CharacterCreate, CharacterPatch } from '../../../../shared/video-characters.schema.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { isNewObject, type IngestedMedia, type MediaIngestPort } from '../uploads/media-port.js';
import { typeOfExtension } from '../../../../shared/media-types.js';
import { readJsonResources } from '../resources.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { page, type Page } from '../templates/templates.service.js';

interface CharacterRow {
  id: string;
  /** null: public. */
  org_id: string | null;
  name: string;
  name_search: string;
  description: string | null;
  reference_image_keys: string;
  position: number;
  created_at: number | null;
}

/** Where the shipped public characters' reference images are stored. */
export const PUBLIC_CHARACTER_PREFIX = 'public/characters/';
const PUBLIC_ID = /^chr_[a-z0-9_]{2,60}$/;

function keysOf(row: CharacterRow): string[] {
  try {
    const keys = JSON.parse(row.reference_image_keys) as unknown;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** A character as stored; the API answer adds time-limited URLs of its images (CharactersService.present). */
export type CharacterRecord = Omit<Character, 'reference_image_urls'>;

export function characterView(row: CharacterRow): CharacterRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    visibility: row.org_id === null ? 'public' : 'private',
    reference_image_keys: keysOf(row),
  };
}

export interface CharactersDeps {
  db: Db;
  log: Logger;
  resourcesDir: string | null;
  /** Stores the public characters' images; checks and re-hosts reference images of new characters. */
  blobs?: BlobStore;
  ingest?: MediaIngestPort;
  /** Lifetime of the reference images' download URLs (config storage.urlTtlSec). */
  urlTtlSec?: number;
}

const readOnlyPublic = (id: string) =>
  new AppError(403, 'forbidden', `Character "${id}" is a public character: public characters are read-only.`);

/**
 * Characters: public ones shipped in resources/characters and each org's private ones. An org sees
 * public characters and its own private ones; another org's private character does not exist for it.
 */
export class CharactersService {
  private readonly stmts;
  private publicImages: Map<string, string> = new Map();
  private publicImagesReady: Promise<void> | null = null;

  constructor(private readonly deps: CharactersDeps) {
    const db = deps.db;
    const visible = '(org_id IS NULL OR org_id = @orgId)';
    const order = 'ORDER BY (org_id IS NOT NULL), position, created_at DESC, rowid DESC';
    this.stmts = {
      get: db.prepare(`SELECT * FROM characters WHERE id = @id AND ${visible}`),
      list: db.prepare(`SELECT * FROM characters WHERE ${visible} ${order} LIMIT @limit OFFSET @offset`),
      search: db.prepare(
        `SELECT * FROM characters WHERE ${visible} AND instr(name_search, @q) > 0 ${order} LIMIT @limit OFFSET @offset`,
      ),
      insert: db.prepare(
        'INSERT INTO characters (id, org_id, name, name_search, description, reference_image_keys, position, created_at) ' +
          'VALUES (@id, @org_id, @name, @name_search, @description, @reference_image_keys, @position, @created_at)',
      ),
      deletePublic: db.prepare('DELETE FROM characters WHERE org_id IS NULL'),
      update: db.prepare(
        'UPDATE characters SET name = @name, name_search = @name_search, description = @description, ' +
          'reference_image_keys = @reference_image_keys WHERE id = @id AND org_id = @org_id',
      ),
      delete: db.prepare('DELETE FROM characters WHERE id = ? AND org_id = ?'),
      // Keys are stored as a JSON array: the quoted key matches one whole element only.
      usingImage: db.prepare(
        'SELECT name FROM characters WHERE org_id = ? AND instr(reference_image_keys, ?) > 0 LIMIT 1',
      ),
    };
  }

  /** Loads resources/characters/*.json (id, name, description, reference_images: file names next to it) as the public characters. */
  seedPublic(): string[] {
    const rows: CharacterRow[] = [];
    this.publicImages = new Map();
    for (const [position, { file, value, error }] of readJsonResources(
      this.deps.resourcesDir,
      'characters',
    ).entries()) {
      const c = (value ?? {}) as { id?: unknown; name?: unknown; description?: unknown; reference_images?: unknown };
      const images = Array.isArray(c.reference_images)
        ? c.reference_images.filter((f): f is string => typeof f === 'string')
        : [];
      if (error || typeof c.id !== 'string' || !PUBLIC_ID.test(c.id) || typeof c.name !== 'string' || !c.name.trim()) {
        this.deps.log.error({ file, error }, 'public character skipped: needs an id (chr_...) and a name');
        continue;
      }
      const keys: string[] = [];
      for (const image of images) {
        const local = path.join(path.dirname(file), path.basename(image));
        if (!fs.existsSync(local)) {
          this.deps.log.error({ file, image }, 'public character image missing');
          continue;
        }
        const key = `${PUBLIC_CHARACTER_PREFIX}${path.basename(image)}`;
        this.publicImages.set(key, local);
        keys.push(key);
      }
      rows.push({
        id: c.id,
        org_id: null,
        name: c.name.trim(),
        name_search: c.name.trim().toLowerCase(),
        description: typeof c.description === 'string' ? c.description : null,
        reference_image_keys: JSON.stringify(keys),
        position,
        created_at: null,
      });
    }
    this.deps.db.transaction(() => {
      this.stmts.deletePublic.run();
      for (const row of rows) this.stmts.insert.run(row);
    })();
    this.publicImagesReady = null;
    return rows.map((r) => r.id);
  }

  /** Puts the public characters' images into the blob store once (before a generation references them). */
  ensurePublicImages(): Promise<void> {
    const blobs = this.deps.blobs;
    if (!blobs) return Promise.resolve();
    this.publicImagesReady ??= (async () => {
      for (const [key, file] of this.publicImages) {
        if (await blobs.head(key)) continue;
        await blobs.put(key, fs.readFileSync(file), typeOfExtension(key));
      }
    })().catch((err: unknown) => {
      this.publicImagesReady = null;
      throw err;
    });
    return this.publicImagesReady;
  }

  list(orgId: string, opts: { q?: string; limit: number; offset: number }): Page<CharacterRecord> {
    const params = { orgId, q: opts.q?.toLowerCase(), limit: opts.limit + 1, offset: opts.offset };
    const rows = (opts.q ? this.stmts.search.all(params) : this.stmts.list.all(params)) as CharacterRow[];
    return page(rows.map(characterView), opts.limit, opts.offset);
  }

  /** A character the org can see, or undefined (another org's private character included). */
  visible(orgId: string, id: string): CharacterRecord | undefined {
    const row = this.stmts.get.get({ id, orgId }) as CharacterRow | undefined;
    return row ? characterView(row) : undefined;
  }

  /** The API answer: each record with time-limited URLs of its images (`baseUrl`: this server as the caller reached it). */
  async present(records: CharacterRecord[], baseUrl?: string): Promise<Character[]> {
    if (records.some((c) => c.visibility === 'public')) await this.ensurePublicImages().catch(() => {});
    return Promise.all(
      records.map(async (c) => ({
        ...c,
        reference_image_urls: await Promise.all(c.reference_image_keys.map((k) => this.imageUrl(k, baseUrl))),
      })),
    );
  }

  private async imageUrl(key: string, baseUrl?: string): Promise<string | null> {
    const blobs = this.deps.blobs;
    if (!blobs) return null;
    const opts = { expiresInSec: this.deps.urlTtlSec ?? 900 };
    try {
      return await blobs.presignDownload(key, { ...opts, baseUrl });
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message }, 'could not presign a character image URL');
      return null;
    }
  }

  /** The name of the org's character that uses `key` as a reference image, or null (uploads ask before deleting). */
  nameUsingImage(orgId: string, key: string): string | null {
    const row = this.stmts.usingImage.get(orgId, JSON.stringify(key)) as { name: string } | undefined;
    return row ? row.name : null;
  }

  /** Each value as a stored image of the org (uploads as they are; URLs and data URIs re-hosted). 400 names the bad one. */
  private async resolveImages(orgId: string, values: string[], stored: IngestedMedia[]): Promise<void> {
    const ingest = this.deps.ingest;
    if (!ingest) throw new Error('media ingestion is not available');
    for (const [i, value] of values.entries()) {
      try {
        stored.push(await ingest.resolve(orgId, 'image', value));
      } catch (err) {
        const e = err as { status?: number; message?: string };
        if (e.status && e.status < 500) throw badRequest(`reference_image_keys[${i}]: ${e.message ?? 'invalid image'}`);
        throw err;
      }
    }
  }

  /** The org's own character for a change: 404 when it cannot see it, 403 for a public one. */
  private ownRow(orgId: string, id: string): CharacterRow {
    const row = this.stmts.get.get({ id, orgId }) as CharacterRow | undefined;
    if (!row) throw notFound(`Character "${id}" not found.`);
    if (row.org_id === null) throw readOnlyPublic(id);
    return row;
  }

  /** Changes the fields given; reference_image_keys replaces the list (images no longer used stay in the org's uploads). */
  async update(orgId: string, id: string, patch: CharacterPatch): Promise<CharacterRecord> {
    const current = this.ownRow(orgId, id);
    const stored: IngestedMedia[] = [];
    try {
      if (patch.reference_image_keys) await this.resolveImages(orgId, patch.reference_image_keys, stored);
      const name = patch.name ?? current.name;
      const row: CharacterRow = {
        ...current,
        name,
        name_search: name.toLowerCase(),
        description: patch.description === undefined ? current.description : patch.description,
        reference_image_keys: patch.reference_image_keys
          ? JSON.stringify(stored.map((m) => m.storageKey))
          : current.reference_image_keys,
      };
      // Deleted meanwhile: the new images are not kept for nothing.
      if (this.stmts.update.run(row).changes !== 1) throw notFound(`Character "${id}" not found.`);
      return characterView(row);
    } catch (err) {
      await this.discard(stored);
      throw err;
    }
  }

  /** Deletes one of the org's characters; its reference images stay in the org's uploads. */
  remove(orgId: string, id: string): void {
    this.ownRow(orgId, id);
    this.stmts.delete.run(id, orgId);
  }

  /** A private character of the org; its reference images must be the org's uploads (or URLs/data URIs, re-hosted). */
  async create(orgId: string, input: CharacterCreate): Promise<CharacterRecord> {
    const stored: IngestedMedia[] = [];
    try {
      await this.resolveImages(orgId, input.reference_image_keys, stored);
      const row: CharacterRow = {
        id: newId('chr'),
        org_id: orgId,
        name: input.name,
        name_search: input.name.toLowerCase(),
        description: input.description,
        reference_image_keys: JSON.stringify(stored.map((m) => m.storageKey)),
        position: 0,
        created_at: Date.now(),
      };
      this.stmts.insert.run(row);
      return characterView(row);
    } catch (err) {
      await this.discard(stored);
      throw err;
    }
  }

  private async discard(media: IngestedMedia[]): Promise<void> {
    for (const m of media.filter(isNewObject)) {
      await this.deps.blobs?.delete(m.storageKey).catch(() => {});
    }
  }
}
