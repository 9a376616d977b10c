import sys

from cogarch.cli import main

sys.exit(main())
