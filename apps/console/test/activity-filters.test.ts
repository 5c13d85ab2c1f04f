import { describe, expect, it } from 'vitest';
import {
  filtersFromQuery,
  isFiltered,
  queryFromFilters,
  serverQuery,
} from '../src/features/activity/lib/filters.js';

describe('activity filters in the URL', () => {
  it('read back what they wrote, leaving out empty ones and page 1', () => {
    const filters = {
      workflow: '6b09f571c46e495d7d83df00',
      channel: 'email',
      status: 'failed' as const,
      subscriberId: 'ana, the first',
      transactionId: 'tx&1',
      from: '2026-11-01',
      to: '2026-11-27',
      page: 3,
    };
    const query = queryFromFilters(filters);
    expect(filtersFromQuery(new URLSearchParams(query.toString()))).toEqual(filters);
    expect(queryFromFilters({ page: 1, subscriberId: '' }).toString()).toBe('');
    expect(isFiltered({ page: 4 })).toBe(false);
    expect(isFiltered({ page: 1, channel: 'sms' })).toBe(true);
  });

  it('ignore what a hand-edited link gets wrong', () => {
    const read = filtersFromQuery(
      new URLSearchParams('status=lost&from=yesterday&to=2026-13&page=-2&channel=%20%20'),
    );
    expect(read).toEqual({ page: 1 });
  });

  it("ask the server with its names, a 0-based page and the viewer's days as instants", () => {
    const query = new URLSearchParams(
      serverQuery({
        workflow: 'w1',
        channel: 'in_app',
        status: 'completed',
        subscriberId: 'ana',
        transactionId: 'tx-1',
        from: '2026-11-01',
        to: '2026-11-01',
        page: 2,
      }),
    );
    expect(Object.fromEntries(query)).toMatchObject({
      page: '1',
      limit: '20',
      templates: 'w1',
      channels: 'in_app',
      statuses: 'completed',
      subscriberIds: 'ana',
      transactionId: 'tx-1',
    });
    // The end day is included: one whole local day apart.
    const after = new Date(query.get('after')!);
    const before = new Date(query.get('before')!);
    expect(after.getHours()).toBe(0);
    expect(after.getDate()).toBe(1);
    expect(before.getDate()).toBe(2);
    expect(before.getHours()).toBe(0);
  });
});
