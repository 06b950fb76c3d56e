//! A forger's tools, for the verifier's tamper tests: unpack a bundle, edit what is in it,
//! recompute every sum a forger can (the manifest's list of files, then `SHA256SUMS` over every
//! file, the new manifest included), and pack it again. What a forger cannot redo without the
//! installation's private key is the signature; what they cannot redo without the authority's
//! is a token.

use std::io::{Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;

/// A bundle unpacked: its entries in order, and entries to add after them (a name may repeat).
pub struct Bundle {
    pub entries: Vec<(String, Vec<u8>)>,
    pub extra: Vec<(String, Vec<u8>)>,
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Bundle {
    /// Unpacks the ZIP at `path`.
    pub fn read(path: &Path) -> Self {
        let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
        let entries = (0..zip.len())
            .map(|i| {
                let mut entry = zip.by_index(i).unwrap();
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                (entry.name().to_owned(), bytes)
            })
            .collect();
        Self {
            entries,
            extra: Vec::new(),
        }
    }

    /// The entry's bytes.
    pub fn bytes(&self, name: &str) -> &[u8] {
        &self
            .entries
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no {name} in the bundle"))
            .1
    }

    /// The entry as text.
    pub fn text(&self, name: &str) -> String {
        String::from_utf8(self.bytes(name).to_vec()).unwrap()
    }

    /// Names of the entries under `folder` ending in `ext`.
    pub fn names(&self, folder: &str, ext: &str) -> Vec<String> {
        self.entries
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| n.starts_with(folder) && n.ends_with(ext))
            .collect()
    }

    /// Replaces the entry's bytes.
    pub fn set(&mut self, name: &str, bytes: Vec<u8>) {
        let entry = self.entries.iter_mut().find(|(n, _)| n == name).unwrap();
        entry.1 = bytes;
    }

    /// Edits the entry as text.
    pub fn edit(&mut self, name: &str, edit: impl FnOnce(&str) -> String) {
        let text = self.text(name);
        self.set(name, edit(&text).into_bytes());
    }

    /// The manifest as JSON.
    pub fn manifest(&self) -> serde_json::Value {
        serde_json::from_slice(self.bytes("manifest.json")).unwrap()
    }

    /// Writes the manifest back (pretty, as the writer does).
    pub fn set_manifest(&mut self, manifest: &serde_json::Value) {
        let mut bytes = serde_json::to_vec_pretty(manifest).unwrap();
        bytes.push(b'\n');
        self.set("manifest.json", bytes);
    }

    /// What a forger recomputes: each file's size and hash in the manifest's list, then
    /// `SHA256SUMS` over every entry but itself.
    pub fn reseal_sums(&mut self) {
        let mut manifest = self.manifest();
        if let Some(files) = manifest["files"].as_array_mut() {
            for file in files {
                let path = file["path"].as_str().unwrap().to_owned();
                if let Some((_, bytes)) = self.entries.iter().find(|(n, _)| *n == path) {
                    file["sha256"] = hex(bytes).into();
                    file["bytes"] = bytes.len().into();
                }
            }
        }
        self.set_manifest(&manifest);
        let sums: String = self
            .entries
            .iter()
            .filter(|(n, _)| n != "SHA256SUMS")
            .map(|(n, bytes)| format!("{}  {n}\n", hex(bytes)))
            .collect();
        self.set("SHA256SUMS", sums.into_bytes());
    }

    /// A bundle as made before signing: no signature, key, tokens or custody log, a version 1
    /// manifest; sums recomputed.
    pub fn make_unsigned(&mut self) {
        let gone: Vec<String> = self
            .entries
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| {
                matches!(
                    n.as_str(),
                    "manifest.sig" | "manifest.json.tsr" | "signing-key.pem" | "custody.jsonl"
                ) || n.starts_with("timestamps/")
            })
            .collect();
        self.entries.retain(|(n, _)| !gone.contains(n));
        let mut manifest = self.manifest();
        let object = manifest.as_object_mut().unwrap();
        object.insert("format_version".into(), 1.into());
        for key in [
            "installation_fingerprint",
            "signing_key",
            "custody",
            "captures",
        ] {
            object.remove(key);
        }
        if let Some(files) = object.get_mut("files").and_then(|f| f.as_array_mut()) {
            files.retain(|f| !gone.iter().any(|g| f["path"] == g.as_str()));
        }
        self.set_manifest(&manifest);
        self.reseal_sums();
    }

    /// Packs the entries (then the extra ones) into a ZIP at `path`.
    pub fn write(&self, path: &Path) {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(false);
        for (name, bytes) in self.entries.iter().chain(&self.extra) {
            zip.start_file(name.as_str(), options).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap();
    }
}

/// Puts `bytes` before the first entry of the ZIP at `path`, its offsets fixed as `zip -A`
/// does, so every tool still opens it.
pub fn prepend(path: &Path, bytes: &[u8]) {
    let mut all = bytes.to_vec();
    all.extend(std::fs::read(path).unwrap());
    std::fs::write(path, all).unwrap();
    let fixed = std::process::Command::new("zip")
        .args(["-q", "-A"])
        .arg(path)
        .status()
        .expect("zip is installed (scripts/install-deps.sh)");
    assert!(fixed.success());
}
