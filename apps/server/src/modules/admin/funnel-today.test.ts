import { randomUUID } from 'node:crypto';
import { FUNNEL_STEPS, type FunnelReport } from '@roots/contracts/admin';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { funnelDailyCounts, funnelEvents, funnelRollupState } from '../../db/schema';
import { DAY_MS, ManualClock } from '../../lib/clock';
import { rowsOf } from '../emails/emails.repository';
import { makeWebDist, openTestDatabase, testDatabases } from '../../test/helpers';
import { AdminRepository, type FunnelCountRow } from './admin.repository';
import { ROLLUP_SETTLE_MS } from './date-range';

const EVENTS = FUNNEL_STEPS.map((item) => item.event);
const STEP_OF_EVENT = new Map<string, string>(FUNNEL_STEPS.map((item) => [item.event, item.step]));
const MINUTE = 60_000;

/** Counts keyed `dimension|value|step` (the day dimension per day), as a report shows them. */
function countsOf(rows: FunnelCountRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const key = `${row.dimension}|${row.value}|${STEP_OF_EVENT.get(row.name)}`;
    counts[key] = (counts[key] ?? 0) + row.count;
  }
  return counts;
}

/** The same keys read from a report (zero counts left out). */
function countsOfReport(report: FunnelReport): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const day of report.days)
    for (const [step, count] of Object.entries(day.counts)) if (count > 0) counts[`day|${day.day}|${step}`] = count;
  for (const source of report.sources)
    for (const [step, count] of Object.entries(source.counts)) if (count > 0) counts[`${source.dimension}|${source.value}|${step}`] = count;
  return counts;
}

/**
 * Today's funnel kept up to a watermark (ADR 198): the counts it gives equal, for every step, day
 * and source, a count from scratch over the raw events with the window of docs/metrics.md (each
 * visit's first arrival, looking a day back from the day's start), as the day goes on and after it
 * is finished and rolled up whole.
 */
describe.each(testDatabases())('the funnel of today from its watermark on $name', ({ url }) => {
  let database: Database;
  let app: RootsApp;
  const repository = new AdminRepository();
  const clock = new ManualClock('2026-05-10T10:00:00.000Z');
  const yesterday = '2026-05-09';
  const today = '2026-05-10';
  const tomorrow = '2026-05-11';
  const at = (time: string) => new Date(`${today}T${time}Z`);

  beforeAll(async () => {
    database = await openTestDatabase(url);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: makeWebDist() });
    app = await buildApp({ config, database, clock });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const record = async (name: string, createdAt: Date, visit: string | null, extra: Record<string, string> = {}) => {
    const attribution: Record<string, string> = { campaign_name: 'spring', media_source: 'fb', ...extra };
    if (visit) Object.assign(attribution, { visit_id: visit, visit_variant: visit.startsWith('quiz') ? 'quiz' : 'walkthrough' });
    await database.db.insert(funnelEvents).values({ id: randomUUID(), name, attribution, country: 'BR', createdAt });
  };
  const funnel = (from: string, to: string) => app.roots.admin.funnel({ from, to });
  /** From scratch: each finished day of [from, to] counted alone (as its roll-up does), and today's events. */
  const fromScratch = async (from: string, to: string) => {
    const rows: FunnelCountRow[] = [];
    for (let day = from; day <= to; day = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)) {
      const start = new Date(`${day}T00:00:00Z`);
      rows.push(...(await repository.funnelCounts(database.db, { from: start, to: new Date(start.getTime() + DAY_MS) }, EVENTS)));
    }
    return countsOf(rows);
  };
  const state = async () => (await database.db.select().from(funnelRollupState).where(eq(funnelRollupState.id, 1)))[0];

  it('counts the same as the raw events while the day goes on, once per visit and step', async () => {
    // Yesterday: a visit that landed before midnight and comes back after it, in the same session.
    await record('intro', new Date(`${yesterday}T23:50:00Z`), 'walk-midnight');
    await record('intro', at('00:10:00'), 'walk-midnight');
    await record('onboarding', at('00:20:00'), 'walk-midnight');
    // A step passed twice by one visit, and an older page's events (each a visit of its own).
    await record('intro', at('01:00:00'), 'quiz-repeat');
    await record('onboarding', at('01:05:00'), 'quiz-repeat');
    await record('onboarding', at('03:00:00'), 'quiz-repeat');
    await record('intro', at('02:00:00'), null, { event_source_url: 'https://x/roots/quiz' });
    await record('intro', at('02:00:00'), null, { media_source: 'google' });
    // The watermark of a question at 10:00 is 09:55: an event exactly on it and one just before.
    const watermark = new Date(clock.now().getTime() - ROLLUP_SETTLE_MS);
    await record('intro', watermark, 'walk-on-watermark');
    await record('intro', new Date(watermark.getTime() - 1), 'walk-before-watermark');
    await record('e-mail screen', new Date(watermark.getTime() - 1), 'quiz-repeat');

    const first = await funnel(today, today);
    expect((await state())?.partialThrough).toEqual(watermark);
    expect((await state())?.partialDay).toBe(today);
    expect(countsOfReport(first)).toEqual(await fromScratch(today, today));
    // The midnight visit landed yesterday: today it is a visit at Consent, not at Landing.
    expect(first.totals.find((row) => row.step === 'landing')?.count).toBe(5);
    expect(first.totals.find((row) => row.step === 'consent')?.count).toBe(2);
    // Today's counts up to the watermark are kept: the events before it, not the one on it.
    const kept = await database.db.select().from(funnelDailyCounts).where(eq(funnelDailyCounts.day, today));
    expect(kept.find((row) => row.dimension === 'day' && row.name === 'intro')?.count).toBe(4);

    // Later arrivals: the same visits again (not new), a new visit, and events landing either side of the next watermark.
    clock.advance(30 * MINUTE); // 10:30, watermark 10:25
    await record('intro', at('10:00:00'), 'walk-on-watermark');
    await record('intro', at('10:10:00'), 'walk-midnight');
    await record('onboarding', at('10:20:00'), 'walk-on-watermark');
    await record('intro', at('10:25:00'), 'quiz-late');
    await record('intro', at('10:28:00'), 'quiz-repeat');
    await record('selfie', at('10:29:00'), 'quiz-late');
    const second = await funnel(today, today);
    expect((await state())?.partialThrough).toEqual(at('10:25:00'));
    expect(countsOfReport(second)).toEqual(await fromScratch(today, today));
    expect(second.totals.find((row) => row.step === 'landing')?.count).toBe(6);
    expect(second.totals.find((row) => row.step === 'consent')?.count).toBe(3);

    // Asked again with nothing new, at the same time and later: the same figures (nothing added twice).
    expect(await funnel(today, today)).toEqual(second);
    clock.advance(20 * MINUTE);
    expect(await funnel(today, today)).toEqual(second);
    expect((await state())?.partialThrough).toEqual(at('10:45:00'));
    // A range of several days ending today reads yesterday from its roll-up and today as above.
    expect(countsOfReport(await funnel(yesterday, today))).toEqual(await fromScratch(yesterday, today));
  });

  it('does not count twice when two consoles ask at once', async () => {
    clock.advance(40 * MINUTE); // 11:30, watermark 11:25
    await record('intro', at('11:00:00'), 'walk-concurrent');
    await record('intro', at('11:10:00'), 'walk-midnight');
    await record('subscription offer', at('11:20:00'), 'walk-concurrent');
    const answers = await Promise.all([funnel(today, today), funnel(today, today), funnel(yesterday, today)]);
    const expected = await fromScratch(today, today);
    expect(countsOfReport(answers[0])).toEqual(expected);
    expect(countsOfReport(answers[1])).toEqual(expected);
    expect(countsOfReport(await funnel(today, today))).toEqual(expected);
    expect(expected['day|2026-05-10|paywall']).toBe(1);
    if (!url) return; // PGlite has one connection: its transactions never overlap
    // On PostgreSQL, two roll-ups that start while a third holds the state row: each must wait for
    // the one before it and start from the watermark it left, not from the one both first saw.
    clock.advance(30 * MINUTE); // 12:00, watermark 11:55
    await record('intro', at('11:40:00'), 'walk-while-locked');
    const settled = new Date(clock.now().getTime() - ROLLUP_SETTLE_MS);
    let rollUps: Promise<unknown> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from funnel_rollup_state where id = 1 for update`);
      let settledCount = 0;
      const both = [0, 1].map(() =>
        repository.rollUpFunnelToday(database.db, today, settled, EVENTS, clock.now()).finally(() => (settledCount += 1)),
      );
      rollUps = Promise.all(both);
      // Until both wait on a lock (or, without the state lock, have gone ahead): a bounded wait.
      for (let tries = 0; tries < 400 && settledCount < 2; tries += 1) {
        const [row] = rowsOf<{ n: number }>(
          await tx.execute(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          ),
        );
        if ((row?.n ?? 0) >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    await rollUps;
    expect((await state())?.partialThrough).toEqual(settled);
    const kept = await database.db.select().from(funnelDailyCounts).where(eq(funnelDailyCounts.day, today));
    expect(kept.find((row) => row.dimension === 'day' && row.name === 'intro')?.count).toBe(8);
    expect(countsOfReport(await funnel(today, today))).toEqual(await fromScratch(today, today));
  });

  it('replaces the partial counts with the finished day’s roll-up, and restarts the watermark the next day', async () => {
    // Events of the day's last minutes, after the last watermark, and one a visit makes after midnight.
    await record('intro', at('23:58:00'), 'walk-late-night');
    await record('onboarding', at('23:59:59.999'), 'walk-late-night');
    // An event counted in today's partial counts is taken out of the table before the day is rolled
    // (the product never deletes funnel steps; an operator may): the roll-up must not keep its count.
    await database.db
      .delete(funnelEvents)
      .where(sql`${funnelEvents.attribution}->>'media_source' = 'google' and ${funnelEvents.createdAt} < ${at('10:00:00').toISOString()}`);
    // A visit that lands early today and comes back tomorrow morning, more than a day before the watermark then.
    await record('intro', at('03:00:00'), 'walk-two-days');
    clock.set(`${tomorrow}T00:02:00.000Z`); // the watermark would be 23:57 of the day before: it stays at midnight
    await record('intro', new Date(`${tomorrow}T00:01:00Z`), 'walk-late-night');
    await record('intro', new Date(`${tomorrow}T00:01:30Z`), 'walk-after-midnight');
    const report = await funnel(yesterday, tomorrow);
    expect((await state())?.rolledThrough).toBe(today);
    expect((await state())?.partialDay).toBe(tomorrow);
    expect((await state())?.partialThrough).toEqual(new Date(`${tomorrow}T00:00:00Z`));
    expect(countsOfReport(report)).toEqual(await fromScratch(yesterday, tomorrow));
    expect(report.days.find((day) => day.day === tomorrow)?.counts.landing).toBe(1);
    // The finished day's rows are exactly a roll-up from scratch (no partial key left behind).
    const rolled = await database.db.select().from(funnelDailyCounts).where(eq(funnelDailyCounts.day, today));
    const scratch = await repository.funnelCounts(database.db, { from: at('00:00:00'), to: new Date(`${tomorrow}T00:00:00Z`) }, EVENTS);
    const keyed = (rows: Array<{ name: string; dimension: string; value: string; count: number }>) =>
      rows.map((row) => `${row.dimension}|${row.dimension === 'day' ? today : row.value}|${row.name}|${row.count}`).sort();
    expect(keyed(rolled)).toEqual(keyed(scratch));
    expect(keyed(rolled).some((key) => key.startsWith('media_source|google|'))).toBe(false);

    // Later that day: the watermark moves on from midnight and the figures stay those of the raw events.
    clock.set(`${tomorrow}T08:00:00.000Z`);
    await record('intro', new Date(`${tomorrow}T07:00:00Z`), 'walk-morning');
    await record('intro', new Date(`${tomorrow}T07:58:00Z`), 'walk-morning');
    const morning = await funnel(tomorrow, tomorrow);
    expect((await state())?.partialThrough).toEqual(new Date(`${tomorrow}T07:55:00Z`));
    expect(countsOfReport(morning)).toEqual(await fromScratch(tomorrow, tomorrow));
    expect(morning.totals.find((row) => row.step === 'landing')?.count).toBe(2);
    // After a quiet spell (a step of four hours, read with the window): the figures are still those of the raw events.
    clock.set(`${tomorrow}T12:00:00.000Z`);
    await record('intro', new Date(`${tomorrow}T09:00:00Z`), 'quiz-noon');
    await record('intro', new Date(`${tomorrow}T10:00:00Z`), 'walk-morning');
    await record('intro', new Date(`${tomorrow}T09:30:00Z`), 'walk-two-days');
    await record('onboarding', new Date(`${tomorrow}T11:00:00Z`), 'walk-morning');
    const noon = await funnel(tomorrow, tomorrow);
    expect((await state())?.partialThrough).toEqual(new Date(`${tomorrow}T11:55:00Z`));
    expect(countsOfReport(noon)).toEqual(await fromScratch(tomorrow, tomorrow));
    expect(noon.totals.find((row) => row.step === 'landing')?.count).toBe(3);
    expect(noon.totals.find((row) => row.step === 'consent')?.count).toBe(1);
    // A range that ended before today reads the roll-up only.
    expect(countsOfReport(await funnel(yesterday, today))).toEqual(await fromScratch(yesterday, today));
  });
});
