-- The operator audit trail is append-only (issue 13, ADR 121): no UPDATE, no DELETE, no TRUNCATE.
CREATE OR REPLACE FUNCTION admin_audit_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER admin_audit_no_update_or_delete BEFORE UPDATE OR DELETE ON admin_audit FOR EACH ROW EXECUTE FUNCTION admin_audit_refuse_change();
--> statement-breakpoint
CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_refuse_change();
