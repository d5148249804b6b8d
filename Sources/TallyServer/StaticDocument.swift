import Foundation
import Hummingbird

/// A file shipped with the server (the OpenAPI document, the dashboard page), read once and
/// answered with a strong ETag of its content.
struct StaticDocument: Sendable {
    /// The content.
    let bytes: ByteBuffer
    /// The media type.
    let contentType: String
    /// A hash of the content, quoted.
    let eTag: String

    /// Loads resource `name`.`ext` of this module.
    init(resource name: String, ext: String, contentType: String) throws {
        self.init(data: try Self.resource(name, ext: ext), contentType: contentType)
    }

    /// The OpenAPI document, generated from `ReportCatalog` over `Resources/openapi-base.json`.
    static func openAPI() throws -> StaticDocument {
        let base = String(decoding: try resource("openapi-base", ext: "json"), as: UTF8.self)
        return StaticDocument(data: Data(OpenAPIDocument.text(base: base).utf8), contentType: "application/json; charset=utf-8")
    }

    /// The bytes of resource `name`.`ext` of this module.
    static func resource(_ name: String, ext: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).\(ext)"])
        }
        return try Data(contentsOf: url)
    }

    /// `data` served as `contentType`.
    init(data: Data, contentType: String) {
        bytes = ByteBuffer(bytes: data)
        self.contentType = contentType
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        eTag = "\"" + String(hash, radix: 16) + "\""
    }

    /// The document, or 304 when the client holds this version.
    func response(to request: Request) -> Response {
        let headers: HTTPFields = [.contentType: contentType, .eTag: eTag, .cacheControl: "no-cache"]
        if IfNoneMatch(request.headers[values: .ifNoneMatch]).matches(eTag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }
}
