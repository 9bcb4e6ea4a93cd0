import { describe, expect, it } from 'vitest';
import {
  matchAdditionalFields,
  matchScore,
  parseCheckboxValue,
  tokens,
} from '../../../../src/main/core/login/engine/field-matcher.js';
import type { ScannedField } from '../../../../src/main/core/login/engine/form-scan.js';

function field(id: string, over: Partial<ScannedField>): ScannedField {
  return {
    id,
    kind: 'text',
    name: '',
    htmlId: '',
    label: '',
    placeholder: '',
    ariaLabel: '',
    autocomplete: '',
    descriptor: '',
    editable: true,
    inert: false,
    hasValue: false,
    score: 0,
    ...over,
  };
}

describe('field matcher', () => {
  it('tokenizes camelCase, snake_case and punctuation alike', () => {
    expect(tokens('companyId')).toEqual(['company', 'id']);
    expect(tokens('company_id')).toEqual(['company', 'id']);
    expect(tokens('Company-ID:')).toEqual(['company', 'id']);
    expect(tokens('Área')).toEqual(['area']);
  });

  it('scores exact, containment and word overlap', () => {
    expect(matchScore('tenant_id', 'tenantId')).toBe(100);
    expect(matchScore('domain', 'Windows domain')).toBeGreaterThan(40);
    expect(matchScore('company id', 'Your company ID number')).toBeGreaterThan(25);
    expect(matchScore('pin', 'Password')).toBe(0);
    expect(matchScore('region', 'username')).toBe(0);
  });

  it('assigns keys to distinct fields by name, id, label, placeholder or aria-label', () => {
    const fields = [
      field('a', { name: 'ctl00$tenant', label: 'Organisation' }),
      field('b', { htmlId: 'region-select', kind: 'select', label: 'Data region' }),
      field('c', { kind: 'checkbox', name: 'terms', label: 'I accept the terms of service' }),
      field('d', { placeholder: 'Security PIN' }),
      field('e', { ariaLabel: 'Customer number' }),
    ];
    const got = matchAdditionalFields(
      ['tenant', 'region', 'acceptTerms', 'pin', 'customer_number', 'unknown_thing'],
      fields,
    );
    const byKey = Object.fromEntries(got.map((g) => [g.key, g.field.id]));
    expect(byKey).toEqual({ tenant: 'a', region: 'b', acceptTerms: 'c', pin: 'd', customer_number: 'e' });
  });

  it('never assigns one field to two keys', () => {
    const got = matchAdditionalFields(['org', 'organization'], [field('a', { name: 'organization' })]);
    expect(got).toHaveLength(1);
    expect(got[0].key).toBe('organization');
  });

  it('parses checkbox values', () => {
    for (const v of ['true', 'on', '1', 'yes', 'YES']) expect(parseCheckboxValue(v)).toBe(true);
    for (const v of ['false', 'off', '0', 'no']) expect(parseCheckboxValue(v)).toBe(false);
    expect(parseCheckboxValue('blue')).toBeUndefined();
  });
});
