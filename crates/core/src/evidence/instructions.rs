//! `VERIFY.txt`: how anyone checks the bundle without Sightline, with standard tools
//! (`sha256sum`, `base64`, `openssl`, and `jq` for the custody log), and what each check
//! proves: the sums that copies agree, the signature who, a token when. Every command is
//! written out exactly, each token's with its own file and hash; the tests run them.

use std::io::Write;

use super::media::{MediaWritten, MEDIA_DIR, MEDIA_JSONL};
use super::seal::Seal;
use super::write::TokenPlan;
use super::{
    utc_words, Bundle, StampState, CUSTODY_JSONL, MANIFEST_JSON, MANIFEST_SIG, MANIFEST_TSR,
    SHA256SUMS, SIGNING_KEY_PEM,
};

/// The one-line command that checks `manifest.sig`, run from the unzipped bundle's folder.
pub const SIGNATURE_COMMAND: &str = "base64 -d manifest.sig > manifest.sig.bin && openssl pkeyutl -verify -pubin -inkey signing-key.pem -rawin -in manifest.json -sigfile manifest.sig.bin";

/// The command that checks one capture's token against the authority's CA (`<ca.pem>`).
pub fn token_command(token: &str, sha256: &str, certificates: Option<&str>) -> String {
    let untrusted = certificates
        .map(|file| format!(" -untrusted {file}"))
        .unwrap_or_default();
    format!("openssl ts -verify -in {token} -digest {sha256} -CAfile <ca.pem>{untrusted}")
}

/// Writes `VERIFY.txt`.
pub(super) fn write(
    bundle: &Bundle,
    seal: &Seal<'_>,
    tokens: &TokenPlan,
    media: &MediaWritten,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let fingerprint = seal.signer.public_key().fingerprint();
    writeln!(
        out,
        "How to check this evidence bundle without Sightline\n\
         ===================================================\n\n\
         Made by {} {} on {} ({}).\n\
         Collected by: {}.\n\
         Installation fingerprint (the signing key's): {fingerprint}\n",
        seal.tool.0,
        seal.tool.1,
        utc_words(bundle.created_at),
        seal.os,
        seal.collector
            .as_deref()
            .unwrap_or("not named in Sightline's Settings"),
    )?;
    writeln!(
        out,
        "What each check proves\n\
         ----------------------\n\
         * The sums ({SHA256SUMS}): your copy of each file is the one the sums list. Nothing \
         more: whoever edits a file can write new sums too.\n\
         * The signature ({MANIFEST_SIG}): who. The holder of the private key whose public key \
         is {SIGNING_KEY_PEM} signed {MANIFEST_JSON} exactly as it is, and the manifest lists \
         every other file's hash. It proves who only if that key is known to be the \
         collector's: compare its fingerprint with the one the collector shows you (Sightline \
         shows it in Settings > Signing identity).\n\
         * A timestamp token (.tsr): when. A timestamp authority saw that hash no later than \
         the time inside the token, so the file existed then. A time in the manifest without a \
         token is only this computer's clock.\n\
         * The custody log's chain ({CUSTODY_JSONL}): every entry is there, unchanged and in \
         order, up to its last entry's hash, which the signed manifest states.\n\n\
         Run every command below inside the folder the bundle was unzipped into.\n"
    )?;
    writeln!(
        out,
        "1. The files\n\
         ------------\n\
         \x20 sha256sum -c {SHA256SUMS}\n\
         Every line must end in OK. ({SHA256SUMS} lists every file but itself.)\n"
    )?;
    writeln!(
        out,
        "2. The signature\n\
         ----------------\n\
         The key's fingerprint (must print {fingerprint}):\n\
         \x20 openssl pkey -pubin -in {SIGNING_KEY_PEM} -outform DER | sha256sum\n\
         The signature (must print \"Signature Verified Successfully\"):\n\
         \x20 {SIGNATURE_COMMAND}\n\
         ({MANIFEST_SIG} is the Ed25519 signature over the exact bytes of {MANIFEST_JSON}, in \
         base64; OpenSSL 3.0 or later.)\n"
    )?;

    writeln!(
        out,
        "3. The timestamps\n\
         -----------------\n\
         Each token is checked against the timestamp authority's own root certificate (its \
         CA), written <ca.pem> below. Take it from the authority's website and compare its \
         fingerprint with the one the authority publishes:\n\
         \x20 openssl x509 -in ca.pem -noout -fingerprint -sha256\n\
         The certificates in timestamps/ are the ones the tokens carried{}. Using one of \
         them as <ca.pem> proves only that a token agrees with certificates inside this bundle, \
         not that a real authority made it: anyone can make a CA. Neither Sightline nor \
         openssl ts -verify (by default) asks whether the authority's certificate was revoked \
         since: if a stamp is disputed, look its certificate up in the authority's published \
         revocation list (CRL).\n",
        if tokens.authority_ca.is_some() {
            " and the authority's CA the collector added in Sightline"
        } else {
            ""
        },
    )?;
    match seal.authority.as_deref() {
        Some(authority) => writeln!(out, "Authority set at export: {authority}")?,
        None => writeln!(out, "No timestamp authority was set at export.")?,
    }
    if let Some(ca) = &tokens.authority_ca {
        writeln!(out, "The CA added in Settings: {ca}")?;
    }
    writeln!(
        out,
        "The manifest's token, when {MANIFEST_TSR} is present (made at export, over the \
         manifest's exact bytes):\n\
         \x20 openssl ts -verify -in {MANIFEST_TSR} -data {MANIFEST_JSON} -CAfile <ca.pem>\n\
         Each capture's token is listed at the end of this file with its own command; \
         {MANIFEST_JSON} (\"captures\") says for each capture whether it is stamped, waiting, \
         failed (and why) or was never sent to an authority.\n"
    )?;

    writeln!(out, "4. The custody log\n------------------")?;
    match &bundle.custody {
        Some(log) => writeln!(
            out,
            "{CUSTODY_JSONL} holds {} entries; the last one's hash, stated in {MANIFEST_JSON} \
             (\"custody\", \"head_hash\"), is {}.\n{}\n",
            log.entries, log.head_hash, log.hash_rule
        )?,
        None => writeln!(
            out,
            "This bundle is a hand-picked selection, not an investigation: it has no custody \
             log.\n"
        )?,
    }

    media_section(bundle, media, out)?;

    let stamped: Vec<String> = bundle
        .requests
        .iter()
        .zip(&tokens.per_request)
        .filter_map(|(request, files)| {
            let files = files.as_ref()?;
            let capture = request.capture.as_ref()?;
            matches!(request.stamp, StampState::Stamped(_)).then(|| {
                token_command(&files.token, &capture.sha256, files.certificates.as_deref())
            })
        })
        .collect();
    writeln!(
        out,
        "Each capture's token ({} of {} captures stamped)\n\
         ------------------------------------------------",
        stamped.len(),
        bundle
            .requests
            .iter()
            .filter(|r| r.capture.is_some())
            .count()
    )?;
    if stamped.is_empty() {
        writeln!(out, "None of the captures in this bundle is stamped.")?;
    }
    for command in stamped {
        writeln!(out, "  {command}")?;
    }
    Ok(())
}

/// What the media files are, how they are checked, and what this bundle holds of them.
fn media_section(
    bundle: &Bundle,
    media: &MediaWritten,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use sightline_store::MediaState;
    let count = |state: MediaState| bundle.media.iter().filter(|i| i.state == state).count();
    writeln!(
        out,
        "5. The pictures and videos\n\
         --------------------------\n\
         {MEDIA_DIR} holds each picture and video Sightline kept of these posts, exactly as \
         received, once however many posts carry it, named by the SHA-256 of its bytes \
         ({MEDIA_DIR}<sha256>.<ext>). Step 1 checks them with every other file, and the \
         signed {MANIFEST_JSON} lists each. A file's name can be checked against its bytes too: \
         sha256sum {MEDIA_DIR}* prints each file's hash beside its name.\n\
         {MEDIA_JSONL} has one line per picture or video of the posts: the address it was \
         fetched from, when (by this computer's clock), the HTTP status and every response \
         header as received, its size, type, SHA-256 and, for a picture, its PDQ hash (a \
         256-bit perceptual hash in hex: copies of one picture resized or recompressed differ \
         in few of its bits). A link that had gone (404 or 410), a fetch given up, a file over \
         the size limit or one not fetched yet is recorded as such, with its time, and has no \
         file. The timestamp tokens above are over the service's responses, not over these \
         files; the signed manifest covers them.\n"
    )?;
    if bundle.media.is_empty() {
        writeln!(
            out,
            "The posts in this bundle have no pictures or videos recorded.\n"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "This bundle: {} media items ({} kept, {} gone, {} given up, {} over the size limit, \
         {} not fetched yet), {} files in {MEDIA_DIR}.",
        bundle.media.len(),
        count(MediaState::Kept),
        count(MediaState::Gone),
        count(MediaState::Failed),
        count(MediaState::TooLarge),
        count(MediaState::Waiting),
        media.files.len(),
    )?;
    for (sha256, why) in &media.left_out {
        writeln!(out, "Left out, kept as {sha256}: {why}.")?;
    }
    writeln!(out)
}
