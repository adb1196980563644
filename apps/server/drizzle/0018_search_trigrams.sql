-- Hand-written: the trigram operator classes the console's search by part of an email uses (ADR 190).
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension; the embedded database loads it too.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
