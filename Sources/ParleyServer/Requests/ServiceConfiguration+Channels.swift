import ParleyCore
import ParleyHTTP

extension ServiceConfiguration {
    /// A channel name from a body member or query value; the default when absent.
    func channelName(_ value: JSONValue?) throws(HTTPError) -> String {
        guard let value, !value.isNull else { return defaultChannel }
        guard case .string(let channel) = value else {
            throw ServiceProblem.malformedBody("\"channel\" must be a string")
        }
        return try checkedChannel(channel)
    }

    /// 400 unless the channel is 1 to `maxChannelLength` printable characters.
    func checkedChannel(_ channel: String) throws(HTTPError) -> String {
        guard RequestInput.isChannelName(channel, maximumLength: maxChannelLength) else {
            throw ServiceProblem.badParameter(
                "channel must be 1 to \(maxChannelLength) printable characters without spaces")
        }
        return channel
    }
}
