import { holdsCardData, type VaultRecordResult, type VaultRecordsRequest } from '@roots/contracts/gateway-vault-records';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { vaultRecords, type VaultRecordField } from '../../db/schema';
import { GatewayError } from '../../errors';
import { newId } from '../../lib/ids';
import type { ClientPrincipal } from '../sessions/bearer-token';
import type { CardCipher } from './card-cipher';

export type VaultRecordRow = typeof vaultRecords.$inferSelect;

/** Storage of the vault's records (SQL only). */
export class VaultRecordsRepository {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<VaultRecordRow | undefined> {
    const [row] = await this.db.select().from(vaultRecords).where(eq(vaultRecords.id, id));
    return row;
  }

  /** The shopper's record of `table` whose `column` has this keyed hash (an upsert match). */
  async findByHash(holderReference: string, table: string, column: string, hash: string): Promise<VaultRecordRow | undefined> {
    const [row] = await this.db
      .select()
      .from(vaultRecords)
      .where(
        and(
          eq(vaultRecords.holderReference, holderReference),
          eq(vaultRecords.tableName, table),
          sql`${vaultRecords.fields} -> ${column} ->> 'hash' = ${hash}`,
        ),
      );
    return row;
  }

  async insert(row: typeof vaultRecords.$inferInsert): Promise<VaultRecordRow> {
    const [inserted] = await this.db.insert(vaultRecords).values(row).returning();
    if (!inserted) throw new Error('vault record insert returned nothing');
    return inserted;
  }

  async updateFields(id: string, fields: Record<string, VaultRecordField>): Promise<VaultRecordRow> {
    const [row] = await this.db.update(vaultRecords).set({ fields, updatedAt: new Date() }).where(eq(vaultRecords.id, id)).returning();
    if (!row) throw new Error('vault record vanished during update');
    return row;
  }
}

/**
 * The vault's records (checkout-spec §3 "Collect options"): the values of the non-card collect
 * elements, encrypted per field with a token each. A record is inserted, or updated when it names
 * an existing one (`skyflowID`) or an upsert column matches one of the shopper's records. Records
 * belong to the session's holder; another holder's id is not found.
 */
export class VaultRecordsService {
  constructor(
    private readonly repository: VaultRecordsRepository,
    private readonly cipher: CardCipher,
  ) {}

  private seal(table: string, column: string, value: string): VaultRecordField {
    return { token: newId('tkn'), sealed: this.cipher.seal(value), hash: this.cipher.keyedHash(`${table}.${column}:${value}`) };
  }

  async store(principal: ClientPrincipal, request: VaultRecordsRequest): Promise<VaultRecordResult[]> {
    const results: VaultRecordResult[] = [];
    for (const record of request.records) {
      const sealed = Object.fromEntries(
        Object.entries(record.fields).map(([column, value]) => [column, this.seal(record.table, column, value)] as const),
      );
      const upsertColumn = request.upsert?.find((rule) => rule.table === record.table)?.column;
      let existing: VaultRecordRow | undefined;
      if (record.skyflowID) {
        existing = await this.repository.find(record.skyflowID);
        if (!existing || existing.holderReference !== principal.holderReference || existing.tableName !== record.table)
          throw new GatewayError('NOT_FOUND', `Record ${record.skyflowID} not found in ${record.table}`);
      } else if (upsertColumn) {
        const match = sealed[upsertColumn];
        if (!match) throw new GatewayError('VALIDATION_ERROR', `upsert: ${record.table} records need the column ${upsertColumn}`);
        existing = await this.repository.findByHash(principal.holderReference, record.table, upsertColumn, match.hash);
      }
      const row = existing
        ? await this.repository.updateFields(existing.id, { ...existing.fields, ...sealed })
        : await this.repository.insert({
            id: newId('rec'),
            holderReference: principal.holderReference,
            sessionId: principal.sessionId,
            tableName: record.table,
            fields: sealed,
          });
      results.push({
        table: record.table,
        skyflowID: row.id,
        ...(request.tokens
          ? { fields: Object.fromEntries(Object.keys(record.fields).map((column) => [column, sealed[column]!.token])) }
          : {}),
      });
    }
    return results;
  }

  /** The clear values of a record (for the merchant's server-side reads and tests), card data left out. */
  async reveal(id: string): Promise<{ table: string; holderReference: string; fields: Record<string, string> } | undefined> {
    const row = await this.repository.find(id);
    if (!row) return undefined;
    return {
      table: row.tableName,
      holderReference: row.holderReference,
      // Card data never leaves in clear, even if a record stored before the refusal holds some.
      fields: Object.fromEntries(
        Object.entries(row.fields).flatMap(([column, field]) => {
          const value = this.cipher.open(field.sealed);
          return holdsCardData(column, value) ? [] : [[column, value] as const];
        }),
      ),
    };
  }
}
