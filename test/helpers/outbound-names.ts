// Names that stand for other address ranges in tests (10.0.0.5, 169.254.169.254, a public address): resolved from a
// fixed table by the outbound policy's resolver hook, and dialed on 127.0.0.1, so no packet leaves the machine.
import type { OutboundMode } from '../../src/main/core/config/config.schema.js';
import {
  OutboundPolicy,
  type OutboundPolicyOptions,
  type ResolvedAddress,
  type Resolver,
} from '../../src/main/core/net/outbound-policy.js';

export type NameTable = Record<string, ResolvedAddress[]>;

/** A resolver over a fixed table; a name not in it does not exist (ENOTFOUND, as getaddrinfo says). */
export function tableResolver(table: NameTable): Resolver {
  return async (name) => {
    const found = table[name];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  };
}

/** The policy's test hooks: names from the table, every allowed address connected to on 127.0.0.1. */
export function loopbackHooks(table: NameTable): Required<Pick<OutboundPolicyOptions, 'resolve' | 'dial'>> {
  return { resolve: tableResolver(table), dial: () => '127.0.0.1' };
}

/** A policy in `mode` over the table (see loopbackHooks). */
export const namedPolicy = (table: NameTable, mode: OutboundMode = 'private-ok') =>
  new OutboundPolicy({ mode, ...loopbackHooks(table) });
