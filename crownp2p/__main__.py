import sys

from crownp2p.shell.cli import main

sys.exit(main())
