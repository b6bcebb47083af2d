public import ParleyCore
import ParleyDSL

extension ShippedFlows {
    /// Delivery address: numeric rules (house number, floor, tip) and a
    /// conditional `requiredIf` (company name for business addresses).
    public static var deliveryAddress: Flow {
        Flow("delivery-address", title: "Delivery address", upgrade: upgradeScreen("with your delivery")) {
            Step("address", title: "Delivery address", spacing: .m) {
                TextField("street", label: "Street")
                    .required("The street is required.")
                    .maxLength(100, "Use at most 100 characters.")
                HStack(spacing: .s, alignment: .top) {
                    TextField("houseNumber", label: "No.")
                        .required("The house number is required.")
                        .integer("Use a whole number.")
                        .minimum(1, "House numbers start at 1.")
                        .maximum(9999, "That house number is too large.")
                        .size(.weight(1))
                    TextField("postcode", label: "Postcode")
                        .required("The postcode is required.")
                        .pattern("[0-9]{5}", "Postcodes have five digits.")
                        .size(.weight(2))
                }
                TextField("city", label: "City").required("The city is required.")
                Picker("addressType", label: "Address type", options: addressTypes)
                    .required("Pick an address type.")
                    .oneOf(addressTypes, "Pick one of the address types.")
                TextField("companyName", label: "Company name")
                    .requiredIf(Field("addressType") == "business", "Business addresses need a company name.")
                    .maxLength(100, "Use at most 100 characters.")
                Button("Continue", action: .submit).id("next")
            } next: {
                Next(go: "delivery")
            }
            Step("delivery", title: "Delivery details", spacing: .m) {
                TextField("floor", label: "Floor")
                    .integer("Use a whole number.")
                    .minimum(-3, "The lowest floor is -3.")
                    .maximum(200, "That floor is too high.")
                TextField("tip", label: "Tip for the driver (EUR)", placeholder: "0")
                    .minimum(0, "A tip cannot be negative.")
                    .maximum(50, "Tips are limited to 50 EUR.")
                    .multipleOf("0.5", "Tips go in steps of 0.50 EUR.")
                TextField("deliveryNotes", label: "Notes for the driver")
                    .requiredIf(
                        Field("floor").isPresent && Field("floor") != "0",
                        "Tell the driver how to reach that floor."
                    )
                    .maxLength(250, "Use at most 250 characters.")
                Button("Confirm address", action: .submit).id("next")
            } next: {
                Next(go: "done")
            }
            Step("done", title: "Saved") {
                Text("Your delivery address is saved.")
            }
        }
    }

    static let addressTypes = ["home", "business"]
}
