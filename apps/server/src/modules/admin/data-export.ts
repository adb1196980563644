import type { DataExport } from '@roots/contracts/admin';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';
import type { AccountRepository } from '../account/account.repository';
import type { SessionUser } from '../auth/session';
import type { AdminRepository } from './admin.repository';
import { toChargeRecord, toEmailRecord, toRefundRecord, toReportRecord, toSubscriptionRecord } from './customer-records';

/**
 * The customer's data download (GDPR Art. 15 access and Art. 20 portability): their account,
 * profile, purchases with the consent records, charges, refunds, emails and reports (status and
 * estimate; no image exists to export). Only the caller's own data: the signed-in area's ownership rule,
 * and emails only to their verified address, each as the outbox keeps it (codes and links redacted).
 */
export class DataExportService {
  constructor(private readonly deps: { db: Db; accounts: AccountRepository; repository: AdminRepository; clock: Clock }) {}

  async export(user: SessionUser): Promise<DataExport> {
    const { db, accounts, repository } = this.deps;
    const rows = await accounts.subscriptionsOf(db, user);
    const ids = rows.map((row) => row.id);
    // Only emails to the address this user proved (issue 22): a purchase naming another address is
    // a claim, and what was sent there is that address owner's. Stored emails are redacted anyway.
    const emailAddresses = user.emailVerified ? [normalizeEmail(user.email)] : [];
    const [profile, account, charges, refunds, emails, reports] = await Promise.all([
      accounts.profile(db, user.id),
      repository.userByEmail(db, user.email.toLowerCase()),
      repository.chargesOf(db, ids),
      repository.refundsOf(db, ids),
      Promise.all(emailAddresses.map((address) => repository.emailsTo(db, address))).then((lists) => lists.flat()),
      repository.reportsOfUser(db, user.id, ids),
    ]);
    return {
      exported_at: this.deps.clock.now().toISOString(),
      user: { id: user.id, email: user.email, name: user.name, created_at: (account?.createdAt ?? this.deps.clock.now()).toISOString() },
      profile: profile ? { name: profile.name, birth_date: profile.birthDate, birth_time: profile.birthTime } : null,
      subscriptions: rows.map(toSubscriptionRecord),
      charges: charges.map(toChargeRecord),
      refunds: refunds.map(toRefundRecord),
      emails: emails.map(toEmailRecord),
      reports: reports.map(toReportRecord),
    };
  }
}
