package payloadstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// privateCluster starts a PostgreSQL cluster of its own for the test
// (initdb and pg_ctl of the installed server, no TCP port: a socket in
// a temporary directory) and returns its URL. As root, the cluster runs
// as the postgres user: the server refuses to run as root.
func privateCluster(t *testing.T) string {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	initdb := ""
	if len(bins) > 0 {
		initdb = bins[len(bins)-1]
	} else if p, err := exec.LookPath("initdb"); err == nil {
		initdb = p
	} else {
		t.Skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql")
	}
	pgctl := filepath.Join(filepath.Dir(initdb), "pg_ctl")
	dir, err := os.MkdirTemp("", "pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var as []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root and there is no postgres user to run the server as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	data, sock := filepath.Join(dir, "data"), dir
	runCmd := func(args ...string) {
		t.Helper()
		full := append(append([]string{}, as...), args...)
		out, err := exec.Command(full[0], full[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	runCmd(initdb, "-D", data, "-A", "trust", "-U", "jinjabox", "--no-sync")
	runCmd(pgctl, "-D", data, "-w", "-t", "60", "-l", filepath.Join(dir, "log"), "-o", fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off", sock), "start")
	t.Cleanup(func() {
		full := append(append([]string{}, as...), pgctl, "-D", data, "-m", "immediate", "-w", "stop")
		_ = exec.Command(full[0], full[1:]...).Run()
	})
	return "postgres://jinjabox@/postgres?host=" + sock
}

func TestPostgres(t *testing.T) {
	url := privateCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, closer, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	p := d.(*Postgres)
	exercise(t, p, func(key string, data []byte) {
		if _, err := p.pool.Exec(ctx, `UPDATE `+PostgresTable+` SET data = $2 WHERE key = $1`, key, data); err != nil {
			t.Fatal(err)
		}
	})
	// Expire deletes by the time a row was last stored: nothing is an
	// hour old, everything is older than nothing.
	if n, err := p.Expire(ctx, time.Hour); err != nil || n != 0 {
		t.Errorf("Expire(1h) = %d, %v; want 0", n, err)
	}
	if n, err := p.Expire(ctx, -time.Second); err != nil || n != 3 {
		t.Errorf("Expire(now) = %d, %v; want the 3 rows stored", n, err)
	}
}
