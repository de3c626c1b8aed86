import os
import tempfile

# Tests never touch the developer's database or secret: a throwaway data directory.
os.environ.setdefault("KARUTA_DATA_DIR", tempfile.mkdtemp(prefix="karuta-test-"))
