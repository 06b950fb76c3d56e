//! A CSV cell as a spreadsheet will read it, for every CSV the app writes (the exports here,
//! the evidence bundle's `posts.csv`, the analysis tables): nothing a stranger wrote runs as a
//! formula, and no id loses a digit.

/// A cell a spreadsheet will not run as a formula: one starting with `=`, `+`, `-`, `@`, tab or
/// carriage return is prefixed with `'`. The files are opened by people in spreadsheet apps,
/// and post text is written by strangers.
pub fn cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_owned(),
    }
}

/// An id a spreadsheet keeps whole: a tab before it when it is all digits; anything else is an
/// ordinary, formula-safe [`cell`].
///
/// Excel and LibreOffice read a cell of digits as a number and keep 15 significant digits, so
/// a 19-digit post id comes back with its last digits turned to zeros (and an id's leading
/// zeros are dropped). Both read a cell that begins with a tab as text and show the digits
/// unchanged (checked with LibreOffice headless by the bundle's and the Archive export's
/// tests); a program that reads the file sees the tab as leading white space, which
/// `strip()`/`trim()` and integer parsers skip. The other ways were worse: `="…"` is a formula
/// (LibreOffice shows it as typed unless formulas are evaluated on import, and any program
/// reading the file gets the formula, not the id), and a leading `'` is kept as part of the
/// text by LibreOffice.
pub fn id_cell(id: &str) -> String {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("\t{id}")
    } else {
        cell(id)
    }
}
