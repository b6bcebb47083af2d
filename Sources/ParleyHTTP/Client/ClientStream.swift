import COpenSSL
import Glibc

/// The byte stream of one outgoing connection: the socket itself, or TLS over it with the
/// certificate checked against the URL's host. Every call waits at most `timeout` seconds.
final class ClientStream {
    private let socket: ClientSocket
    private let ssl: OpaquePointer?
    private let timeout: Double

    /// Plain when `tls` is nil; otherwise completes a verified handshake for `host` first.
    init(socket: ClientSocket, tls: ClientTLSContext?, host: String, timeout: Double) throws(HTTPClientError) {
        self.socket = socket
        self.timeout = timeout
        guard let tls else {
            ssl = nil
            return
        }
        guard let ssl = SSL_new(tls.pointer) else { throw .tls("SSL_new failed") }
        self.ssl = ssl
        SSL_set_fd(ssl, socket.fd)
        if IPAddress(host) != nil {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            SSL_set1_host(ssl, host)
            host.withCString { name in
                _ = SSL_ctrl(
                    ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                    UnsafeMutableRawPointer(mutating: name))
            }
        }
        SSL_set_connect_state(ssl)
        while true {
            ERR_clear_error()
            let result = SSL_do_handshake(ssl)
            if result == 1 { break }
            let code = SSL_get_error(ssl, result)
            guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
                let verify = SSL_get_verify_result(ssl)
                if verify != X509_V_OK {
                    throw .tls("certificate not accepted: \(String(cString: X509_verify_cert_error_string(verify)))")
                }
                throw .tls("handshake failed: \(TLSContext.lastError())")
            }
            guard try socket.wait(for: Int16(code == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), seconds: timeout)
            else { throw .tls("handshake: no progress within \(timeout) s") }
        }
    }

    deinit { if let ssl { SSL_free(ssl) } }

    /// Writes every byte.
    func write(_ bytes: [UInt8]) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let (written, wants) = bytes.withUnsafeBytes { raw in
                writeOnce(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            if written > 0 {
                offset += written
                continue
            }
            guard let wants else { throw .io("the connection closed while sending the request") }
            guard try socket.wait(for: wants, seconds: timeout) else {
                throw .io("sending the request: no progress within \(timeout) s")
            }
        }
    }

    /// Reads some bytes into `buffer`; 0 at end of stream.
    func read(_ buffer: UnsafeMutableRawBufferPointer) throws(HTTPClientError) -> Int {
        while true {
            let (count, wants) = readOnce(buffer)
            if count >= 0, wants == nil { return count }
            guard let wants else { throw .io("reading the response failed") }
            guard try socket.wait(for: wants, seconds: timeout) else {
                throw .io("waiting for the response: nothing within \(timeout) s")
            }
        }
    }

    /// Bytes written, or what to wait for (nil: failed).
    private func writeOnce(_ raw: UnsafeRawBufferPointer) -> (Int, Int16?) {
        if let ssl {
            ERR_clear_error()
            let result = SSL_write(ssl, raw.baseAddress, Int32(clamping: raw.count))
            return result > 0 ? (Int(result), nil) : (0, wants(ssl, result))
        }
        let result = send(socket.fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        if result >= 0 { return (result, nil) }
        return (0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Int16(POLLOUT) : nil)
    }

    /// Bytes read (0: end) with nil, or -1 with what to wait for (nil: failed).
    private func readOnce(_ buffer: UnsafeMutableRawBufferPointer) -> (Int, Int16?) {
        if let ssl {
            ERR_clear_error()
            let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
            if result > 0 { return (Int(result), nil) }
            if SSL_get_error(ssl, result) == SSL_ERROR_ZERO_RETURN { return (0, nil) }
            return (-1, wants(ssl, result))
        }
        let result = recv(socket.fd, buffer.baseAddress, buffer.count, 0)
        if result >= 0 { return (result, nil) }
        return (-1, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Int16(POLLIN) : nil)
    }

    private func wants(_ ssl: OpaquePointer, _ result: Int32) -> Int16? {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: Int16(POLLIN)
        case SSL_ERROR_WANT_WRITE: Int16(POLLOUT)
        default: nil
        }
    }
}
