import COpenSSL
import Glibc

/// An OpenSSL client context that verifies the peer's certificate chain (TLS 1.2 or later)
/// against the system's trust store, or against one PEM file of trusted certificates.
///
/// `@unchecked Sendable` is safe: the `SSL_CTX` is fully configured in `init` and never mutated
/// afterwards; OpenSSL documents `SSL_new` on a shared, unmodified context as thread-safe.
final class ClientTLSContext: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A verifying context; `trustedCertificatesFile` replaces the system trust store when given.
    init(trustedCertificatesFile: String?) throws(HTTPClientError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("SSL_CTX_new failed") }
        pointer = context
        SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded =
            if let trustedCertificatesFile {
                SSL_CTX_load_verify_locations(context, trustedCertificatesFile, nil)
            } else {
                SSL_CTX_set_default_verify_paths(context)
            }
        guard loaded == 1 else { throw .tls("cannot load trusted certificates: \(TLSContext.lastError())") }
        // OpenSSL writes with write(2): a peer that resets must not raise SIGPIPE in the process.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { SSL_CTX_free(pointer) }
}
