public import ParleyCore
import ParleyDSL

extension ShippedFlows {
    /// Chat support: quick replies and cards, which fall back to a picker and
    /// buttons on 1.0 cores. After the message the user waits on `waiting` while an
    /// agent answers into the session (`POST /v1/sessions/{id}/events`, DESIGN.md
    /// "Live sessions"); the client shows the snapshot's `messages` as they arrive.
    public static var chatSupport: Flow {
        Flow("chat-support", title: "Support chat", upgrade: upgradeScreen("the support chat")) {
            Step("topic", title: "Support", spacing: .m) {
                Text("Hi! What can we help you with?", style: .headline)
                QuickReplies("topic", options: topics)
                    .required("Pick a topic.")
                    .oneOf(topics, "Pick one of the topics.")
                    .fallback { field in Picker(field, label: "Topic", options: topics) }
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(when: Field("topic").in(["Where is my order?", "Returns"]), go: "order")
                Next(go: "message")
            }
            Step("order", title: "Your order", spacing: .m) {
                TextField("orderId", label: "Order number", placeholder: "12345678")
                    .required("The order number is required.")
                    .pattern("[0-9]{8}", "Order numbers have 8 digits.")
                for article in articles {
                    Card(
                        DisplayText(article.title), subtitle: DisplayText(article.subtitle),
                        action: .openURL(article.url)
                    )
                    .fallback { Button(DisplayText(article.title), action: .openURL(article.url)) }
                }
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "message")
            }
            Step("message", title: "Your message", spacing: .m) {
                TextField("message", label: "How can we help?")
                    .required("Please write a message.")
                    .minLength(10, "Tell us a little more (at least 10 characters).")
                    .maxLength(2000, "Use at most 2000 characters.")
                Button("Send", action: .submit).id("next")
            } next: {
                Next(go: "waiting")
            }
            Step("waiting", title: "Talking to support", spacing: .m) {
                Text("An agent will answer here shortly; keep this page open.")
                Button("Done", action: .submit).id("next")
            } next: {
                Next(go: "done")
            }
            Step("done", title: "Sent") {
                Text("Thanks, we usually reply within a day.")
            }
        }
    }

    static let topics = ["Where is my order?", "Returns", "Something else"]

    static let articles: [(title: String, subtitle: String, url: String)] = [
        ("Track your parcel", "Live status from the carrier", "https://help.example.com/tracking"),
        ("Return an item", "Free returns within 30 days", "https://help.example.com/returns"),
    ]
}
