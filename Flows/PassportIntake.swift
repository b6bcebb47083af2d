public import ParleyCore
import ParleyDSL

extension ShippedFlows {
    /// Passport intake: country, purpose (work travel branches to employer
    /// details), document number and expiry, e-mail, then a last check that
    /// confirms the e-mail; in English and French. The confirmation is a
    /// cross-step `equalsField` (DESIGN.md "Sessions"): `confirm` reads `email`
    /// from the `contact` step, which lies on every path to it. equalsField is a
    /// 1.2 rule: older cores defer it and the server enforces it.
    public static var passportIntake: Flow {
        Flow("passport-intake", title: "Passport intake", upgrade: upgradeScreen("your passport application")) {
            Step("country", title: "Passport", spacing: .m) {
                Text("A few details first.").id("intro")
                TextField("passportCountry", label: "Passport country", placeholder: "e.g. DE")
                    .required("Passport country is required.")
                    .pattern("[A-Z]{2}", "Use the two-letter country code.")
                Picker("purpose", label: "Purpose of travel", options: purposes)
                    .required("Tell us why you are travelling.")
                    .oneOf(purposes, "Pick one of the listed purposes.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(when: Field("purpose") == "work", go: "employer")
                Next(go: "document")
            }
            Step("employer", title: "Your employer", spacing: .m) {
                Text("Because you travel for work, we need your employer's details.")
                TextField("employerName", label: "Employer name")
                    .required("Employer name is required.")
                    .maxLength(120, "Use at most 120 characters.")
                TextField("employerCity", label: "City")
                    .required("The employer's city is required.")
                    .maxLength(80, "Use at most 80 characters.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "document")
            }
            Step("document", title: "Passport document", spacing: .m) {
                TextField("documentNumber", label: "Document number", placeholder: "C01X00T47")
                    .sensitive()
                    .required("The document number is required.")
                    .pattern("[A-Z0-9]{6,9}", "Use 6 to 9 capital letters or digits.")
                DatePicker("expiryDate", label: "Expiry date")
                    .required("The expiry date is required.")
                    .date(min: "2026-01-01", "Use a valid date; the passport must not have expired.")
                    .fallback { field in
                        TextField(field, label: "Expiry date (YYYY-MM-DD)", placeholder: "2031-12-31")
                            .required("The expiry date is required.")
                            .pattern("[0-9]{4}-[0-9]{2}-[0-9]{2}", "Write the date as YYYY-MM-DD.")
                            .date(min: "2026-01-01", "Use a valid date; the passport must not have expired.")
                    }
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "contact")
            }
            Step("contact", title: "Contact", spacing: .m) {
                TextField("email", label: "E-mail")
                    .required("Your e-mail address is required.")
                    .email("Enter a valid e-mail address.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "confirm")
            }
            Step("confirm", title: "Check and send", spacing: .m) {
                Text("Type your e-mail address once more: we send your passport news there.").id("why")
                TextField("emailConfirmation", label: "Confirm e-mail")
                    .required("Please confirm your e-mail address.")
                    .equalsField("email", "The e-mail addresses do not match.")
                Button("Send application", action: .submit).id("next")
            } next: {
                Next(go: "done")
            }
            Step("done", title: "Thank you") {
                Text("We have your application and will e-mail you within five working days.")
            }
        }
        .translated(from: "en", ["fr": passportIntakeFrench])
    }

    static let purposes = ["tourism", "work", "study", "family"]
}
