from tts_builder.stamp import main

raise SystemExit(main())
