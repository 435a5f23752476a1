"""fbagent.lean_imports: sqlite-utils loads without pandas and numpy, and maps their types as before."""

from __future__ import annotations

import json
import subprocess
import sys

SCHEMAS = """
import json, sys
{first}
import numpy as np, pandas as pd, sqlite_utils
db = sqlite_utils.Database(memory=True)
db["t"].insert({{"i8": np.int8(1), "i64": np.int64(2), "u32": np.uint32(3), "f16": np.float16(1.5),
                "f32": np.float32(2.5), "f64": np.float64(3.5), "ts": pd.Timestamp("2020-01-02"), "s": "x"}})
print(json.dumps({{"columns": {{c.name: c.type for c in db["t"].columns}}, "row": list(db["t"].rows)[0]}},
                 default=str))
"""


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_the_store_imports_sqlite_utils_without_pandas_and_numpy():
    out = _run("import sys\nimport fbagent.store.db\nimport sqlite_utils.db as d\n"
               "print(sorted(m for m in ('pandas', 'numpy') if m in sys.modules), d.pd, d.np)\n"
               "import numpy\nprint(numpy.__name__)")
    assert out.split("\n")[:2] == ["[] None None", "numpy"]   # hidden during that import only


def test_numpy_and_pandas_values_get_the_column_types_plain_sqlite_utils_gives_them():
    plain = json.loads(_run(SCHEMAS.format(first="")))
    lean = json.loads(_run(SCHEMAS.format(first="import fbagent.store.db")))
    assert lean == plain
    assert plain["columns"] == {"i8": "INTEGER", "i64": "INTEGER", "u32": "INTEGER", "f16": "REAL",
                                "f32": "REAL", "f64": "REAL", "ts": "TEXT", "s": "TEXT"}


def test_sqlite_utils_imported_before_fbagent_is_left_as_it_is():
    out = _run("import sqlite_utils.db as d\nimport fbagent.store.db, sys\n"
               "print(d.pd is not None, d.np is not None, type(d.COLUMN_TYPE_MAPPING).__name__)")
    assert out.strip() == "True True dict"


def test_an_unknown_type_still_raises_key_error():
    out = _run("import fbagent.store.db\nimport sqlite_utils.db as d\n"
               "try:\n    d.COLUMN_TYPE_MAPPING[complex]\nexcept KeyError:\n    print('KeyError')")
    assert out.strip() == "KeyError"
