"""How the parameter form looks: its sections, rows, labels, error lines and help line."""

from __future__ import annotations

from typing import Final

PARAM_FORM_CSS: Final = """
ParamForm {
    height: 1fr;
}
ParamForm > #form-fields {
    height: 1fr;
}
ParamForm .section {
    color: $accent;
    text-style: bold;
    margin-top: 1;
}
ParamForm .section.-first {
    margin-top: 0;
}
ParamForm .field {
    height: 1;
}
ParamForm .field Label {
    width: 21;
    padding-left: 1;
    color: $text-muted;
}
/* The preset's name must show whole ("codeproject-2011"): a short label leaves it room. */
ParamForm #row-preset Label {
    width: 8;
}
/* The longest name ("local-search-candidates") gets the room it needs; its field is a
   number, which needs less. */
ParamForm #row-local_search_candidates Label {
    width: 25;
}
ParamForm .field Input, ParamForm .field Select {
    width: 1fr;
}
/* An open list is as wide as its longest choice ("shuffle-indexes"), never wrapped: it
   may reach past the form's edge. */
ParamForm .field Select > SelectOverlay {
    width: 21;
    text-wrap: nowrap;
}
ParamForm .field.-invalid Label {
    color: $error;
    text-style: bold;
}
ParamForm .field.-inapplicable Label {
    color: $text-disabled;
    text-style: strike;
}
ParamForm .field-error {
    display: none;
    color: $error;
    padding-left: 1;
}
ParamForm .field-error.-shown {
    display: block;
}
ParamForm #form-find {
    display: none;
}
ParamForm #form-help {
    height: 3;
    color: $text-muted;
    border-top: solid $panel-lighten-2;
}
"""
"""The form's CSS (Textual)."""
