"""Art sources, one folder per game (shipped as the ``art_src`` package)."""
