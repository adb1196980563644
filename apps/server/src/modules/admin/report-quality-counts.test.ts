// The quality view's counts the database keeps (issue 36; ADR 199): whatever the report writers do
// (create, claim, complete, fail with a code, expire, link, delete a customer's data, answer and
// re-answer feedback), the counts summed per day and key equal a direct group-by over the rows, and
// so does what the quality view reads for a range.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { buildTestApp, openTestDatabase, testDatabases } from '../../test/helpers';
import { rowsOf } from '../emails/emails.repository';
import { REPORT_FEEDBACK_EVENT, ReportsRepository } from '../reports/reports.repository';
import { AdminRepository } from './admin.repository';

type Row = Record<string, unknown>;
const byKey = (rows: Row[]) => rows.map((row) => JSON.stringify(row)).sort();

describe.each(testDatabases())('report quality counts on $name', ({ url }) => {
  let database: Database;
  const repository = new ReportsRepository();
  const admin = new AdminRepository();

  beforeAll(async () => {
    database = await openTestDatabase(url);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The counts as kept (summed per key), and the same figures grouped directly from the rows. */
  async function keptAndDirect() {
    const { db } = database;
    const keptReports = rowsOf<Row>(
      await db.execute(sql`
        select to_char(day, 'YYYY-MM-DD') as day, status, error_code, model_version, sum(count)::int as count
        from report_status_counts group by 1, 2, 3, 4 having sum(count) <> 0`),
    );
    const directReports = rowsOf<Row>(
      await db.execute(sql`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, status, error_code, result->>'modelVersion' as model_version,
               count(*)::int as count
        from reports group by 1, 2, 3, 4`),
    );
    const keptFeedback = rowsOf<Row>(
      await db.execute(sql`
        select to_char(day, 'YYYY-MM-DD') as day, looks_correct, sum(count)::int as count
        from report_feedback_counts group by 1, 2 having sum(count) <> 0`),
    );
    const directFeedback = rowsOf<Row>(
      await db.execute(sql`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
               coalesce((payload::jsonb->>'looks_correct') = 'true', false) as looks_correct, count(*)::int as count
        from funnel_events where name = ${REPORT_FEEDBACK_EVENT} group by 1, 2`),
    );
    return {
      kept: { reports: byKey(keptReports), feedback: byKey(keptFeedback) },
      direct: { reports: byKey(directReports), feedback: byKey(directFeedback) },
    };
  }

  async function expectCountsMatch(minimumKeys: number) {
    const { kept, direct } = await keptAndDirect();
    expect(kept).toEqual(direct);
    expect(direct.reports.length).toBeGreaterThanOrEqual(minimumKeys);
  }

  /** What the quality view read before ADR 199, for one range: every report of the range grouped. */
  async function groupedOverRows(from: Date, to: Date) {
    return rowsOf<Row>(
      await database.db.execute(sql`
        select status, error_code, result->>'modelVersion' as model_version, count(*)::int as count
        from reports where created_at >= ${from.toISOString()} and created_at < ${to.toISOString()} group by 1, 2, 3`),
    );
  }

  it('match a direct group-by after every kind of report write, across a UTC day boundary', async () => {
    const { db } = database;
    const subscriptionId = randomUUID();
    const email = `counts.${randomUUID()}@example.com`;
    const userId = `user-${randomUUID()}`;
    const lateMonday = new Date('2026-05-04T23:59:59.999Z');
    const tuesday = new Date('2026-05-05T00:00:00.000Z');
    const make = async (createdAt: Date, owner: { email: string; subscriptionId: string } = { email, subscriptionId }) => {
      const id = randomUUID();
      await repository.insert(db, {
        id,
        subscriptionId: owner.subscriptionId,
        email: owner.email,
        userId: null,
        kind: 'extended',
        status: 'pending',
        deadlineAt: new Date(createdAt.getTime() + 60_000),
        createdAt,
        updatedAt: createdAt,
      });
      return id;
    };

    const [completed, refused, unreadable, stuck, claimedThenStuck, tuesdayDone] = await Promise.all([
      make(lateMonday),
      make(lateMonday),
      make(tuesday),
      make(tuesday),
      make(lateMonday),
      make(tuesday),
    ]);
    const other = await make(tuesday, { email: `someone.else.${randomUUID()}@example.com`, subscriptionId: randomUUID() });
    await expectCountsMatch(2);

    for (const id of [completed, refused, unreadable, claimedThenStuck, tuesdayDone])
      expect(await repository.apply(db, id, 'pending', 'claimed', {}, tuesday)).toBe(true);
    expect(await repository.apply(db, completed, 'processing', 'analysed', { result: { modelVersion: 'roots-heritage-1' } }, tuesday)).toBe(
      true,
    );
    expect(
      await repository.apply(db, tuesdayDone, 'processing', 'analysed', { result: { modelVersion: 'roots-heritage-2' } }, tuesday),
    ).toBe(true);
    expect(await repository.apply(db, refused, 'processing', 'rejected', { errorCode: 'NO_FACE', errorMessage: 'No face' }, tuesday)).toBe(
      true,
    );
    expect(await repository.apply(db, unreadable, 'processing', 'rejected', { errorCode: 'BAD_IMAGE', errorMessage: 'x' }, tuesday)).toBe(
      true,
    );
    // A second worker's late move is a no-op, and counts nothing.
    expect(await repository.apply(db, refused, 'processing', 'rejected', { errorCode: 'OTHER' }, tuesday)).toBe(false);
    await expectCountsMatch(4);

    // The sweep expires the pending one and the one left processing.
    expect((await repository.expireOverdue(db, new Date(tuesday.getTime() + 120_000))).sort()).toEqual(
      [stuck, claimedThenStuck, other].sort(),
    );
    await expectCountsMatch(4);

    // Linking a user changes no counted key; feedback is answered, then re-answered on another day.
    expect(await repository.linkUser(db, subscriptionId, userId, tuesday)).toBe(6);
    await repository.saveFeedback(
      db,
      { id: completed, subscriptionId },
      { report_id: completed, looks_correct: true, text: 'spot on' },
      lateMonday,
    );
    await repository.saveFeedback(db, { id: tuesdayDone, subscriptionId }, { report_id: tuesdayDone, looks_correct: true }, tuesday);
    await expectCountsMatch(4);
    await repository.saveFeedback(
      db,
      { id: completed, subscriptionId },
      { report_id: completed, looks_correct: false, text: 'no' },
      tuesday,
    );
    const feedbackNow = await keptAndDirect();
    expect(feedbackNow.kept.feedback).toEqual(feedbackNow.direct.feedback);
    expect(feedbackNow.direct.feedback).toEqual(
      byKey([
        { day: '2026-05-05', looks_correct: false, count: 1 },
        { day: '2026-05-05', looks_correct: true, count: 1 },
      ]),
    );

    // What the quality view reads equals the group-by it replaced, for each day and both.
    const monday = new Date('2026-05-04T00:00:00.000Z');
    const wednesday = new Date('2026-05-06T00:00:00.000Z');
    for (const [from, to] of [
      [monday, tuesday],
      [tuesday, wednesday],
      [monday, wednesday],
    ] as const)
      expect(byKey(await admin.reportsByStatus(db, { from, to }))).toEqual(byKey(await groupedOverRows(from, to)));
    const answered = await admin.feedback(db, { from: monday, to: wednesday }, REPORT_FEEDBACK_EVENT, 10);
    expect(answered.counts).toEqual({ answered: 2, looks_correct: 1 });
    expect(answered.rows).toHaveLength(2);

    // 'Delete my data': the user's reports and the feedback on them go, and so do their counts.
    await repository.deleteOwnedBy(db, userId, email);
    await expectCountsMatch(1);
    expect(byKey(await admin.reportsByStatus(db, { from: monday, to: wednesday }))).toEqual(
      byKey([{ status: 'expired', error_code: null, model_version: null, count: 1 }]),
    );
    expect((await admin.feedback(db, { from: monday, to: wednesday }, REPORT_FEEDBACK_EVENT, 10)).counts).toEqual({
      answered: 0,
      looks_correct: 0,
    });
  });

  it('a feedback row whose payload is not JSON counts as answered and not correct, and writes still succeed', async () => {
    const { db } = database;
    const day = new Date('2026-06-01T10:00:00.000Z');
    await db.execute(
      sql`insert into funnel_events (id, name, attribution, payload, created_at) values (${randomUUID()}, ${REPORT_FEEDBACK_EVENT}, '{}'::jsonb, 'not json', ${day.toISOString()}), (${randomUUID()}, ${REPORT_FEEDBACK_EVENT}, '{}'::jsonb, null, ${day.toISOString()})`,
    );
    const answered = await admin.feedback(
      db,
      { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-02T00:00:00Z') },
      REPORT_FEEDBACK_EVENT,
      10,
    );
    expect(answered.counts).toEqual({ answered: 2, looks_correct: 0 });
    await db.execute(sql`delete from funnel_events where name = ${REPORT_FEEDBACK_EVENT} and dedupe_key is null`);
    expect(
      (
        await admin.feedback(
          db,
          { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-02T00:00:00Z') },
          REPORT_FEEDBACK_EVENT,
          10,
        )
      ).counts,
    ).toEqual({ answered: 0, looks_correct: 0 });
  });

  it('concurrent writers, sweeps and compactions leave counts equal to the rows', async () => {
    const { db } = database;
    const start = new Date('2026-07-01T22:00:00.000Z');
    const writers = Array.from({ length: 24 }, (_, index) => async () => {
      const id = randomUUID();
      const createdAt = new Date(start.getTime() + index * 10 * 60_000); // spans midnight
      const subscriptionId = randomUUID();
      await repository.insert(db, {
        id,
        subscriptionId,
        email: `writer${index}@example.com`,
        kind: 'extended',
        status: 'pending',
        deadlineAt: new Date(createdAt.getTime() + (index % 4 === 3 ? 0 : 86_400_000)),
        createdAt,
        updatedAt: createdAt,
      });
      if (index % 4 === 3) return;
      await repository.apply(db, id, 'pending', 'claimed', {}, createdAt);
      await (index % 4 === 0
        ? repository.apply(db, id, 'processing', 'rejected', { errorCode: index % 8 === 0 ? 'NO_FACE' : 'MANY_FACES' }, createdAt)
        : repository.apply(db, id, 'processing', 'analysed', { result: { modelVersion: `v${index % 3}` } }, createdAt));
      if (index % 2 === 1)
        await repository.saveFeedback(db, { id, subscriptionId }, { report_id: id, looks_correct: index % 3 === 0 }, createdAt);
    });
    const housekeeping = Array.from({ length: 6 }, (_, index) => async () => {
      await (index % 2 === 0
        ? db.execute(sql`select compact_report_quality_counts()`)
        : repository.expireOverdue(db, new Date('2026-07-03T00:00:00.000Z')));
    });
    await Promise.all([...writers, ...housekeeping].map((run) => run()));
    await expectCountsMatch(6);
    await db.execute(sql`select compact_report_quality_counts()`);
    await expectCountsMatch(6);
  });

  it('compaction folds each key into one row and changes no figure', async () => {
    const { db } = database;
    await db.execute(sql`select compact_report_quality_counts()`);
    await expectCountsMatch(1);
    const spread = rowsOf<{ rows: number; keys: number }>(
      await db.execute(sql`
        select count(*)::int as rows, count(distinct (day, status, coalesce(error_code, '∅'), coalesce(model_version, '∅')))::int as keys
        from report_status_counts`),
    );
    expect(spread[0]!.rows).toBe(spread[0]!.keys);
    expect(rowsOf(await db.execute(sql`select 1 from report_status_counts where count = 0`))).toEqual([]);
  });
});

describe('the report sweep compacts the counts', () => {
  it('folds the rows of many writes into one per day and key while the app runs', async () => {
    const database = await openTestDatabase(undefined);
    const repository = new ReportsRepository();
    const { db } = database;
    const createdAt = new Date('2026-08-01T12:00:00.000Z');
    for (let index = 0; index < 6; index += 1) {
      const id = randomUUID();
      await repository.insert(db, {
        id,
        subscriptionId: randomUUID(),
        email: `sweep${index}@example.com`,
        kind: 'extended',
        status: 'pending',
        deadlineAt: new Date('2099-01-01T00:00:00.000Z'),
        createdAt,
        updatedAt: createdAt,
      });
      await repository.apply(db, id, 'pending', 'claimed', {}, createdAt);
      await repository.apply(db, id, 'processing', 'analysed', { result: { modelVersion: 'v1' } }, createdAt);
    }
    const rows = async () =>
      rowsOf<{ rows: number; total: number }>(
        await db.execute(sql`select count(*)::int as rows, coalesce(sum(count), 0)::int as total from report_status_counts`),
      )[0]!;
    expect(await rows()).toEqual({ rows: 30, total: 6 }); // each report: +1 made, −1/+1 claimed, −1/+1 done
    const app = await buildTestApp({ database, env: { REPORT_SWEEP_INTERVAL_MS: '50' } });
    try {
      await app.ready();
      let seen = await rows();
      for (let attempt = 0; attempt < 400 && seen.rows !== 1; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = await rows();
      }
      expect(seen).toEqual({ rows: 1, total: 6 });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
