/** Numbering facts from libphonenumber's maintained data: validity, type and place, the same every time. */
import { describe, expect, it } from 'vitest';
import { numberFacts } from '../../src/simulation/numbering.js';

describe('numbering facts from libphonenumber', () => {
  it('places a number by its area code and exchange: a city and state, a province alone, a territory', () => {
    expect(numberFacts('+13125550100')).toEqual({ nanp: true, tollFree: false, state: 'IL', rateCenter: 'CHICAGO' });
    expect(numberFacts('12125551234')).toMatchObject({ state: 'NY', rateCenter: 'NEW YORK' });
    expect(numberFacts('+14155550123')).toMatchObject({ state: 'CA', rateCenter: 'SAN FRANCISCO' });
    expect(numberFacts('+16475550123')).toMatchObject({ nanp: true, state: 'ON' });
    expect(numberFacts('+17872345678')).toMatchObject({ nanp: true, state: 'PR' });
  });

  it('toll-free numbers and sandbox numbers are NANP numbers without a place', () => {
    expect(numberFacts('+18005550100')).toEqual({ nanp: true, tollFree: true, state: null, rateCenter: null });
    expect(numberFacts('+13992000000')).toEqual({ nanp: true, tollFree: false, state: null, rateCenter: null });
  });

  it('a number of another country, a malformed one, or one libphonenumber holds invalid is not NANP', () => {
    expect(numberFacts('2125551234').nanp).toBe(false);
    expect(numberFacts('+212555123456').nanp).toBe(false);
    expect(numberFacts('+1312055010').nanp).toBe(false);
    expect(numberFacts('+19995550100').nanp).toBe(false);
  });

  it('asks once per exchange: the same answer for the same exchange, repeatably', () => {
    expect(numberFacts('+13125559999')).toEqual(numberFacts('+13125550100'));
  });
});
