//! Test support: a CSV file the app wrote, read back as the programs people open it with read
//! it. Python's `csv` module stands for a program (a tab guard is leading white space it may
//! trim); LibreOffice, run headless, stands for a spreadsheet (a cell of digits becomes a
//! number with 15 significant digits unless it is read as text). Either is skipped, with a
//! line saying so, on a machine that lacks it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// One row, column name to cell.
pub type Row = BTreeMap<String, String>;

/// Whether `tool` is on the `PATH`.
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The file's rows as Python's `csv.DictReader` reads them (UTF-8, a byte-order mark
/// allowed); `None` without `python3`.
pub fn python_rows(csv_path: &Path) -> Option<Vec<Row>> {
    if !have("python3") {
        println!("skipped the Python csv read-back: python3 is not installed");
        return None;
    }
    let script = "import csv,json,sys\n\
         rows=list(csv.DictReader(open(sys.argv[1],encoding='utf-8-sig',newline='')))\n\
         print(json.dumps([{k:v for k,v in r.items()} for r in rows]))";
    let run = Command::new("python3")
        .args(["-c", script, csv_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(serde_json::from_slice(&run.stdout).unwrap())
}

/// The file's rows after LibreOffice opened it as a spreadsheet (UTF-8, comma, quote) and
/// saved it again, into `scratch`; `None` without `soffice`.
pub fn spreadsheet_rows(csv_path: &Path, scratch: &Path) -> Option<Vec<Row>> {
    if !have("soffice") {
        println!("skipped the LibreOffice read-back: soffice is not installed");
        return None;
    }
    let converted = scratch.join("spreadsheet");
    let run = Command::new("soffice")
        .args([
            "--headless",
            "--infilter=Text - txt - csv (StarCalc):44,34,76",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76",
            "--outdir",
            converted.to_str().unwrap(),
            csv_path.to_str().unwrap(),
        ])
        .env("HOME", scratch)
        .output()
        .unwrap();
    let saved = std::fs::read_to_string(converted.join(csv_path.file_name().unwrap()))
        .unwrap_or_else(|_| {
            panic!(
                "LibreOffice did not convert: {}",
                String::from_utf8_lossy(&run.stderr)
            )
        });
    let mut reader = csv::Reader::from_reader(saved.trim_start_matches('\u{feff}').as_bytes());
    let headers = reader.headers().unwrap().clone();
    let rows = reader.records().map(|row| {
        let row = row.unwrap();
        headers
            .iter()
            .map(str::to_owned)
            .zip(row.iter().map(str::to_owned))
            .collect()
    });
    Some(rows.collect())
}
