"""Jinja2 templates of the generated Lua and XmlUI (shipped as lua_templates)."""
