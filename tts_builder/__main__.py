from tts_builder.cli import main

raise SystemExit(main())
