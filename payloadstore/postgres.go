package payloadstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// PostgresTable is the table the PostgreSQL driver keeps payloads in,
// created when missing: the digest, the encoded payload, and when it was
// last stored (an expiry deletes by stored_at, docs/temporal.md).
const PostgresTable = "jinjabox_payloads"

const postgresSchema = `CREATE TABLE IF NOT EXISTS ` + PostgresTable + ` (
	key       text PRIMARY KEY,
	data      bytea NOT NULL,
	stored_at timestamptz NOT NULL DEFAULT now()
)`

// Postgres stores payloads as rows of PostgresTable, for workers on many
// hosts that share a database. It holds a connection pool: Close it.
type Postgres struct {
	pool *pgxpool.Pool
	// DriverName is the name stored with every claim: "postgres" when
	// empty.
	DriverName string
}

var _ converter.StorageDriver = (*Postgres)(nil)

// NewPostgres connects to the database of url (a PostgreSQL connection
// URL or key=value string, as libpq and pgx read them; the standard PG*
// variables fill what it leaves out) and creates the table if missing.
func NewPostgres(ctx context.Context, url string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("payloadstore: postgres settings: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("payloadstore: postgres: %w", err)
	}
	if _, err := pool.Exec(ctx, postgresSchema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("payloadstore: creating %s: %w", PostgresTable, err)
	}
	return &Postgres{pool: pool}, nil
}

// Close closes the pool.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Name is the driver's name in claims.
func (p *Postgres) Name() string {
	if p.DriverName == "" {
		return "postgres"
	}
	return p.DriverName
}

// Type is the driver's kind.
func (p *Postgres) Type() string { return "jinjabox.postgres" }

// Store inserts each payload's row, or refreshes stored_at of the row
// that holds it.
func (p *Postgres) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	objs, err := encodeAll(payloads)
	if err != nil {
		return nil, err
	}
	for i, o := range objs {
		err := ctx.GetLimiter().Permit(ctx.Context, payloads[i], func() error {
			_, err := p.pool.Exec(ctx.Context, `INSERT INTO `+PostgresTable+` (key, data) VALUES ($1, $2)
				ON CONFLICT (key) DO UPDATE SET stored_at = now()`, o.key, o.data)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("payloadstore: storing %s: %w", o.key, err)
		}
	}
	return claims(objs), nil
}

// Retrieve reads each claim's row and checks it against its digest.
func (p *Postgres) Retrieve(ctx converter.StorageDriverRetrieveContext, cs []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	keys, err := keysOf(cs)
	if err != nil {
		return nil, err
	}
	out := make([]*commonpb.Payload, len(keys))
	for i, k := range keys {
		err := ctx.GetLimiter().Permit(ctx.Context, cs[i], func() error {
			var data []byte
			err := p.pool.QueryRow(ctx.Context, `SELECT data FROM `+PostgresTable+` WHERE key = $1`, k).Scan(&data)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("%w: %s in %s", ErrMissing, k, PostgresTable)
			}
			if err != nil {
				return fmt.Errorf("payloadstore: %w", err)
			}
			out[i], err = decode(k, data)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Expire deletes the rows last stored before the given age, returning
// how many: run it from a schedule (docs/temporal.md says how old a
// claim may get).
func (p *Postgres) Expire(ctx context.Context, age time.Duration) (int64, error) {
	tag, err := p.pool.Exec(ctx, `DELETE FROM `+PostgresTable+` WHERE stored_at < now() - make_interval(secs => $1)`, age.Seconds())
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}
