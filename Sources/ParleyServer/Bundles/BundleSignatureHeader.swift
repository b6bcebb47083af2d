import ParleyCrypto
import ParleyHTTP

/// `Parley-Signature: keyId="ci", signature="<base64>"` (DESIGN.md "Bundle").
enum BundleSignatureHeader {
    /// The key id and signature bytes; 400 when the header is missing, repeated or malformed.
    static func parse(_ values: [String]) throws(HTTPError) -> (keyId: String, signature: [UInt8]) {
        guard values.count == 1, let header = values.first else {
            throw ServiceProblem.badParameter(
                "send one Parley-Signature: keyId=\"…\", signature=\"<base64>\" header with the bundle")
        }
        var members: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw malformed }
            let name = String(pair[0]).trimmingASCIISpaces
            var value = Substring(String(pair[1]).trimmingASCIISpaces)
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { throw malformed }
            value = value.dropFirst().dropLast()
            guard members[name] == nil else { throw malformed }
            members[name] = String(value)
        }
        guard let keyId = members["keyId"], !keyId.isEmpty, keyId.utf8.count <= 200,
            let encoded = members["signature"]
        else { throw malformed }
        guard let signature = try? Base64.decode(encoded), signature.count == 64 else {
            throw ServiceProblem.untrustedBundle("the signature is not 64 bytes of base64 (Ed25519)")
        }
        return (keyId, signature)
    }

    private static var malformed: HTTPError {
        ServiceProblem.badParameter("Parley-Signature must look like keyId=\"ci\", signature=\"<base64>\"")
    }
}
