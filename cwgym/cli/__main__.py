import sys

from cwgym.cli import main

sys.exit(main())
