import { describe, expect, it } from 'vitest';
import { normalizeUsState, US_STATES } from '../../functions/domain/addresses/us-states';

describe('US states a partner may give as province', () => {
  it('lists the 50 states and the District of Columbia, each once', () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATES.map((state) => state.name)).size).toBe(51);
    expect(new Set(US_STATES.map((state) => state.abbreviation)).size).toBe(51);
    expect(US_STATES.every((state) => /^[A-Z]{2}$/.test(state.abbreviation))).toBe(true);
  });

  it.each(['ca', 'Ca', 'CA', 'cA', 'California', 'california', 'CALIFORNIA', '  california  '])(
    'reads %j as California',
    (input) => {
      expect(normalizeUsState(input)).toBe('California');
    },
  );

  it.each(['dc', 'DC', 'District of Columbia', 'district of columbia', 'DISTRICT OF COLUMBIA'])(
    'reads %j as the District of Columbia',
    (input) => {
      expect(normalizeUsState(input)).toBe('District of Columbia');
    },
  );

  it('reads multi-word names whatever their case and spacing', () => {
    expect(normalizeUsState('new york')).toBe('New York');
    expect(normalizeUsState('NEW   YORK')).toBe('New York');
    expect(normalizeUsState('\tnorth\u00a0carolina\n')).toBe('North Carolina');
    expect(normalizeUsState('wv')).toBe('West Virginia');
    expect(normalizeUsState('WA')).toBe('Washington');
  });

  it('maps every full name and every abbreviation, in any case, to the canonical name', () => {
    for (const { name, abbreviation } of US_STATES) {
      expect(normalizeUsState(name)).toBe(name);
      expect(normalizeUsState(name.toUpperCase())).toBe(name);
      expect(normalizeUsState(name.toLowerCase())).toBe(name);
      expect(normalizeUsState(abbreviation)).toBe(name);
      expect(normalizeUsState(abbreviation.toLowerCase())).toBe(name);
    }
  });

  it.each([
    '',
    '   ',
    'ZZ',
    'C',
    'Cali',
    'Californiaa',
    'Puerto Rico',
    'PR',
    'GU',
    'AE',
    'Washington DC',
    'Ontario',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
  ])('rejects %j', (input) => {
    expect(normalizeUsState(input)).toBeUndefined();
  });
});
