"""Django's SQLite backend with the write lock taken in the process first.

SQLite lets one writer at a time into the database file. A transaction here
is ``BEGIN IMMEDIATE`` (it takes the file's write lock at once), and a
second thread that asks while the first holds it waits in SQLite's busy
handler, which sleeps in steps of 1, 2, 5, 10 ... up to 100 ms between
tries: under a few moves a second, a move waited up to a tenth of a second
for a lock freed long before. Threads of one process now queue on a lock of
the process's own, taken before ``BEGIN IMMEDIATE`` and given back at the
commit or rollback, so the next writer goes in the moment the last one
leaves. Other processes (a worker on the same file) still meet SQLite's
busy handler, as before.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_WRITE_LOCK = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_write_lock = False

    def _take_write_lock(self) -> None:
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        if not _WRITE_LOCK.acquire(timeout=timeout):
            raise OperationalError("database is locked (another thread of this process kept the write lock)")
        self._holds_write_lock = True

    def _give_write_lock(self) -> None:
        if self._holds_write_lock:
            self._holds_write_lock = False
            _WRITE_LOCK.release()

    def _start_transaction_under_autocommit(self):
        self._take_write_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._give_write_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._give_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._give_write_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._give_write_lock()
