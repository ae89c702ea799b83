//go:build go1.21

package races

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"testing"
)

// database/sql hands a driver's connection from one goroutine to the next
// through its pool, under locks and channels of the standard library that
// Period does not see: the connection's own fields, unguarded, race with
// nothing (go test -race agrees).

// countDriver's connections count the statements they ran, without a lock
// of their own: database/sql uses a connection from one goroutine at a time.
type countDriver struct{}

type countConn struct{ ran int }

type countStmt struct{ c *countConn }

func (countDriver) Open(string) (driver.Conn, error) { return &countConn{}, nil }

func (c *countConn) Prepare(string) (driver.Stmt, error) { return countStmt{c}, nil }
func (c *countConn) Close() error                        { return nil }
func (c *countConn) Begin() (driver.Tx, error)           { return nil, errors.New("no transactions") }

func (s countStmt) Close() error  { return nil }
func (s countStmt) NumInput() int { return -1 }
func (s countStmt) Exec([]driver.Value) (driver.Result, error) {
	s.c.ran++
	return driver.RowsAffected(1), nil
}
func (s countStmt) Query([]driver.Value) (driver.Rows, error) {
	return nil, errors.New("no queries")
}

func init() { sql.Register("races-count", countDriver{}) }

// period:want none
func TestDatabaseSQLHandsItsConnection(t *testing.T) {
	db, err := sql.Open("races-count", "")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.Exec("insert"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	db.Close()
}

// Two goroutines that race beside a third using a database still race.
//
// period:want race
func TestRaceBesideDatabaseSQL(t *testing.T) {
	db, err := sql.Open("races-count", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	x := 0
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); x = 1 }()
	go func() { defer wg.Done(); x = 2 }()
	go func() {
		defer wg.Done()
		if _, err := db.Exec("insert"); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
	sink = x
}
