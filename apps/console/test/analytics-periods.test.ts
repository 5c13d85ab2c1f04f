import { describe, expect, it } from 'vitest';
import {
  byChannel,
  duration,
  filledSeries,
  rangeOf,
  searchOf,
  viewOf,
} from '../src/features/analytics/lib/periods';
import type { Deliveries, Figures } from '../src/features/analytics/lib/queries';

const figures = (sent: number): Figures => ({
  sent,
  delivered: 0,
  failed: 0,
  bounced: 0,
  failovers: 0,
  retries: 0,
  p50Ms: null,
  p99Ms: null,
});

describe('the analytics periods and view', () => {
  const now = new Date('2026-11-27T15:20:00Z');

  it('asks whole hours for a day and whole UTC days (at most 90) for longer periods', () => {
    expect(rangeOf('24h', now)).toEqual({
      from: new Date('2026-11-26T16:00:00Z'),
      to: new Date('2026-11-27T16:00:00Z'),
      granularity: 'hour',
    });
    expect(rangeOf('7d', now)).toEqual({
      from: new Date('2026-11-21T00:00:00Z'),
      to: new Date('2026-11-27T16:00:00Z'),
      granularity: 'day',
    });
    const quarter = rangeOf('90d', now);
    // The server refuses more than 92 days.
    expect(quarter.to.getTime() - quarter.from.getTime()).toBeLessThanOrEqual(92 * 86_400_000);
  });

  it('reads the view from the URL, ignoring what a hand-edited link gets wrong', () => {
    expect(viewOf(new URLSearchParams('period=30d&channel=email&provider=sendgrid'))).toEqual({
      period: '30d',
      channel: 'email',
      providerId: 'sendgrid',
    });
    expect(viewOf(new URLSearchParams('period=1y&channel=fax&provider=%20'))).toEqual({
      period: '7d',
      channel: undefined,
      providerId: undefined,
    });
    expect(searchOf({ period: '7d', channel: undefined, providerId: undefined }).toString()).toBe(
      '',
    );
    expect(searchOf({ period: '24h', channel: 'sms', providerId: 'twilio' }).toString()).toBe(
      'period=24h&channel=sms&provider=twilio',
    );
  });

  it('fills the quiet periods with zeros and adds providers per channel', () => {
    const data: Deliveries = {
      from: '2026-11-25T00:00:00.000Z',
      to: '2026-11-27T16:00:00.000Z',
      granularity: 'day',
      series: [{ at: '2026-11-26T00:00:00.000Z', ...figures(4) }],
      providers: [
        { channel: 'email', providerId: 'sendgrid', ...figures(3) },
        { channel: 'email', providerId: 'novu-email', ...figures(1) },
        { channel: 'in_app', providerId: 'sino', ...figures(2) },
      ],
      totals: figures(6),
    };
    expect(filledSeries(data).map((p) => [p.at.slice(0, 10), p.sent])).toEqual([
      ['2026-11-25', 0],
      ['2026-11-26', 4],
      ['2026-11-27', 0],
    ]);
    expect(byChannel(data).map((c) => [c.label, c.sent])).toEqual([
      ['Email', 4],
      ['In-app', 2],
    ]);
  });

  it('reads durations as people do', () => {
    expect(duration(null)).toBe('—');
    expect(duration(850)).toBe('850 ms');
    expect(duration(1234)).toBe('1.2 s');
    expect(duration(210_000)).toBe('3.5 min');
    expect(duration(7_560_000)).toBe('2.1 h');
  });
});
