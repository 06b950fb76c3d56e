//! Signature checks a token and its certificates need: RSA PKCS#1 v1.5 and ECDSA on P-256 and
//! P-384, over SHA-256, SHA-384 or SHA-512. Each failure is a sentence for [`super::TokenCheck`].

use const_oid::db::rfc5912::{
    ECDSA_WITH_SHA_256, ECDSA_WITH_SHA_384, ECDSA_WITH_SHA_512, ID_EC_PUBLIC_KEY, ID_SHA_1,
    ID_SHA_256, ID_SHA_384, ID_SHA_512, RSA_ENCRYPTION, SECP_256_R_1, SECP_384_R_1,
    SHA_256_WITH_RSA_ENCRYPTION, SHA_384_WITH_RSA_ENCRYPTION, SHA_512_WITH_RSA_ENCRYPTION,
};
use der::asn1::ObjectIdentifier;
use der::Encode;
use sha2::{Digest, Sha256, Sha384, Sha512};
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};

/// A hash a token may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hash {
    Sha256,
    Sha384,
    Sha512,
}

impl Hash {
    /// The hash named by a digest algorithm's OID; SHA-1 is refused in words.
    pub fn from_oid(oid: &ObjectIdentifier) -> Result<Self, String> {
        match *oid {
            ID_SHA_256 => Ok(Self::Sha256),
            ID_SHA_384 => Ok(Self::Sha384),
            ID_SHA_512 => Ok(Self::Sha512),
            ID_SHA_1 => Err("it was signed over a SHA-1 hash, which is no longer safe".into()),
            other => Err(format!("it uses a hash Sightline does not know ({other})")),
        }
    }

    /// The hash of `bytes`.
    pub fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha256 => Sha256::digest(bytes).to_vec(),
            Self::Sha384 => Sha384::digest(bytes).to_vec(),
            Self::Sha512 => Sha512::digest(bytes).to_vec(),
        }
    }
}

/// Checks `signature` over `message` with the key `key`. `algorithm` is the signature's
/// algorithm; when it names no hash (plain `rsaEncryption`, as openssl writes in a CMS signer),
/// `digest` (the signer's digest algorithm) does.
pub(super) fn verify(
    key: &SubjectPublicKeyInfoOwned,
    algorithm: &AlgorithmIdentifierOwned,
    digest: Option<&ObjectIdentifier>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), String> {
    let hash = match algorithm.oid {
        SHA_256_WITH_RSA_ENCRYPTION | ECDSA_WITH_SHA_256 => Hash::Sha256,
        SHA_384_WITH_RSA_ENCRYPTION | ECDSA_WITH_SHA_384 => Hash::Sha384,
        SHA_512_WITH_RSA_ENCRYPTION | ECDSA_WITH_SHA_512 => Hash::Sha512,
        RSA_ENCRYPTION | ID_EC_PUBLIC_KEY => {
            Hash::from_oid(digest.ok_or("its signature names no hash algorithm")?)?
        }
        other => {
            return Err(format!(
                "its signature uses an algorithm Sightline cannot check ({other}); it checks \
                 RSA PKCS#1 v1.5 and ECDSA P-256 and P-384"
            ))
        }
    };
    let hashed = hash.digest(message);
    let bad = || {
        "the signature does not match: what was signed is not what the token holds, or \
                  another key signed it"
            .to_owned()
    };
    match key.algorithm.oid {
        RSA_ENCRYPTION => {
            if !matches!(
                algorithm.oid,
                RSA_ENCRYPTION
                    | SHA_256_WITH_RSA_ENCRYPTION
                    | SHA_384_WITH_RSA_ENCRYPTION
                    | SHA_512_WITH_RSA_ENCRYPTION
            ) {
                return Err("the signature's algorithm does not fit the RSA key".into());
            }
            use rsa::pkcs8::DecodePublicKey;
            let der = key
                .to_der()
                .map_err(|e| format!("its key cannot be read ({e})"))?;
            let public = rsa::RsaPublicKey::from_public_key_der(&der)
                .map_err(|e| format!("its RSA key cannot be read ({e})"))?;
            let scheme = match hash {
                Hash::Sha256 => rsa::Pkcs1v15Sign::new::<Sha256>(),
                Hash::Sha384 => rsa::Pkcs1v15Sign::new::<Sha384>(),
                Hash::Sha512 => rsa::Pkcs1v15Sign::new::<Sha512>(),
            };
            public.verify(scheme, &hashed, signature).map_err(|_| bad())
        }
        ID_EC_PUBLIC_KEY => {
            if !matches!(
                algorithm.oid,
                ID_EC_PUBLIC_KEY | ECDSA_WITH_SHA_256 | ECDSA_WITH_SHA_384 | ECDSA_WITH_SHA_512
            ) {
                return Err("the signature's algorithm does not fit the elliptic-curve key".into());
            }
            let curve = key
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
            let point = key.subject_public_key.raw_bytes();
            use p256::ecdsa::signature::hazmat::PrehashVerifier;
            match curve {
                Some(SECP_256_R_1) => {
                    let public = p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                        .map_err(|_| "its P-256 key cannot be read".to_owned())?;
                    let signature = p256::ecdsa::Signature::from_der(signature)
                        .map_err(|_| "its ECDSA signature cannot be read".to_owned())?;
                    public
                        .verify_prehash(&hashed, &signature)
                        .map_err(|_| bad())
                }
                Some(SECP_384_R_1) => {
                    let public = p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                        .map_err(|_| "its P-384 key cannot be read".to_owned())?;
                    let signature = p384::ecdsa::Signature::from_der(signature)
                        .map_err(|_| "its ECDSA signature cannot be read".to_owned())?;
                    public
                        .verify_prehash(&hashed, &signature)
                        .map_err(|_| bad())
                }
                _ => Err(
                    "its key is on an elliptic curve Sightline cannot check (it checks P-256 \
                     and P-384)"
                        .into(),
                ),
            }
        }
        other => Err(format!(
            "its key is of a kind Sightline cannot check ({other}); it checks RSA and ECDSA \
             P-256 and P-384"
        )),
    }
}
