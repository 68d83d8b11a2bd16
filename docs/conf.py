# SPDX-License-Identifier: Apache-2.0
# Sphinx with MyST: the README and docs/ as one HTML site. The source folder is the repository,
# so the README's links into docs/ and the pages' links to figures, experiments and the README
# resolve as they do on a forge (tb/docs_test.py builds it with warnings as errors).
project = "icnsim"
author = "The icnsim maintainers"
copyright = "the icnsim maintainers, Apache License 2.0"
extensions = ["myst_parser"]
root_doc = "docs/index"
include_patterns = ["README.md", "CHANGELOG.md", "docs/*.md"]
exclude_patterns = ["build", "out"]
myst_heading_anchors = 4
myst_enable_extensions = ["dollarmath"]
html_theme = "alabaster"
html_title = "icnsim"
