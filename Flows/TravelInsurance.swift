public import ParleyCore
import ParleyDSL

extension ShippedFlows {
    /// Travel insurance: a flow that reacts to answers (docs/expressions.md), in English and
    /// French. A "please specify" field shown only when the purpose is `other`; a `premium`
    /// computed from the trip cost, travellers and days (exact decimals, rounded to cents) that a
    /// transition (above 1,000 an advisor calls) and a `requiredIf` (a medical declaration from 500)
    /// read; a booking reference required only when the trip's total passes 10,000; a postcode
    /// pattern that applies only to French addresses; the name and premium recalled on the last
    /// step ("Thanks, Ana — your premium is 42.5").
    ///
    /// Cores below 2.1 are served too: what depends on earlier steps is resolved in the session
    /// snapshot (visibility, recalled texts); what reads the step being answered has a fallback
    /// (the "please specify" field always shown, the live premium as a plain sentence).
    public static var travelInsurance: Flow {
        Flow("travel-insurance", title: "Travel insurance", upgrade: upgradeScreen("your travel insurance")) {
            Computed("premium") {
                .round(.add(.mul(Field("tripCost"), "0.04"), .mul(Field("travellers"), Field("days"), "0.5")), scale: 2)
            }
            Computed("tripTotal") { .mul(Field("tripCost"), Field("travellers")) }
            Step("trip", title: "Your trip", spacing: .m) {
                Picker("purpose", label: "Purpose of the trip", options: travelPurposes)
                    .required("Tell us why you are travelling.")
                    .oneOf(travelPurposes, "Pick one of the listed purposes.")
                TextField("otherPurpose", label: "Other — please specify")
                    .required("Tell us the purpose of your trip.")
                    .maxLength(120, "Use at most 120 characters.")
                    .visible(when: Field("purpose") == "other")
                    .fallback { field in
                        TextField(field, label: "If other, please specify")
                            .maxLength(120, "Use at most 120 characters.")
                    }
                TextField("tripCost", label: "Trip cost per traveller (EUR)", placeholder: "1200")
                    .required("The trip cost is required.")
                    .minimum(0, "The trip cost cannot be negative.")
                    .maximum(1_000_000, "Trips above 1,000,000 EUR are insured by phone.")
                    .multipleOf("0.01", "Use at most two decimals.")
                TextField("travellers", label: "Travellers")
                    .required("Tell us how many people travel.")
                    .integer("Use a whole number.")
                    .minimum(1, "At least one person travels.")
                    .maximum(9, "Insure at most 9 travellers at once.")
                TextField("days", label: "Days away")
                    .required("Tell us how many days you are away.")
                    .integer("Use a whole number.")
                    .minimum(1, "A trip lasts at least one day.")
                    .maximum(365, "Insure at most 365 days at once.")
                Text(
                    "Estimated premium: \(Computed("premium")) EUR", style: .caption,
                    fallback: "We show your premium on the next screens."
                )
                .id("estimate")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(when: Computed("premium") > "1000", go: "advisor")
                Next(go: "traveller")
            }
            Step("advisor", title: "An advisor calls you", spacing: .m) {
                Text("A premium of \(Computed("premium")) EUR is agreed with an advisor.").id("why")
                TextField("phone", label: "Phone number", placeholder: "+33 1 23 45 67 89")
                    .required("Your phone number is required.")
                    .pattern("[+]?[0-9 ]{6,20}", "Use digits and spaces, optionally starting with +.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "traveller")
            }
            Step("traveller", title: "Lead traveller", spacing: .m) {
                TextField("firstName", label: "First name")
                    .required("Your first name is required.")
                    .maxLength(80, "Use at most 80 characters.")
                TextField("email", label: "E-mail")
                    .required("Your e-mail address is required.")
                    .email("Enter a valid e-mail address.")
                Picker("country", label: "Country of residence", options: residenceCountries)
                    .required("Tell us where you live.")
                    .oneOf(residenceCountries, "Pick one of the listed countries.")
                TextField("bookingReference", label: "Booking reference")
                    .requiredIf(Computed("tripTotal") > "10000", "Trips above 10,000 EUR need a booking reference.")
                    .maxLength(40, "Use at most 40 characters.")
                TextField("medicalNotes", label: "Medical conditions to declare")
                    .sensitive()
                    .requiredIf(Computed("premium") >= "500", "Premiums from 500 EUR need a declaration (or \"none\").")
                    .maxLength(500, "Use at most 500 characters.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "address")
            }
            Step("address", title: "Your address", spacing: .m) {
                Text("Where should we send your policy, \(Field("firstName"))?").id("intro")
                TextField("street", label: "Street and number")
                    .required("The street is required.")
                    .maxLength(100, "Use at most 100 characters.")
                TextField("postcode", label: "Postcode")
                    .required("The postcode is required.")
                    .pattern("[0-9]{5}", "French postcodes have five digits.")
                    .visible(when: Field("country") == "FR")
                TextField("postalCode", label: "Postal code")
                    .required("The postal code is required.")
                    .maxLength(12, "Use at most 12 characters.")
                    .visible(when: Field("country") != "FR")
                TextField("city", label: "City")
                    .required("The city is required.")
                    .maxLength(80, "Use at most 80 characters.")
                Button("Buy the insurance", action: .submit).id("next")
            } next: {
                Next(go: "confirm")
            }
            Step("confirm", title: "Insured") {
                Text("Thanks, \(Field("firstName")) — your premium is \(Computed("premium")).", style: .headline)
                    .id("thanks")
                Text("Your policy is on its way to \(Field("email")).").id("policy")
            }
        }
        .translated(from: "en", ["fr": travelInsuranceFrench])
    }

    static let travelPurposes = ["leisure", "business", "study", "other"]
    static let residenceCountries = ["FR", "BE", "CH", "DE", "ES", "IT", "GB", "US"]
}
