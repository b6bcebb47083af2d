extension ShippedFlows {
    /// Passport intake's French strings, keyed by the English ones (docs/localization.md). A
    /// string missing here makes the flow fail lint (`missingLocale`), never show English in French.
    static let passportIntakeFrench: [String: String] = [
        "Passport intake": "Demande de passeport",
        "Passport": "Passeport",
        "A few details first.": "Quelques informations d'abord.",
        "Passport country": "Pays du passeport",
        "e.g. DE": "p. ex. FR",
        "Passport country is required.": "Le pays du passeport est obligatoire.",
        "Use the two-letter country code.": "Indiquez le code pays à deux lettres.",
        "Purpose of travel": "Motif du voyage",
        "Tell us why you are travelling.": "Dites-nous pourquoi vous voyagez.",
        "Pick one of the listed purposes.": "Choisissez l'un des motifs proposés.",
        "Continue": "Continuer",
        "Your employer": "Votre employeur",
        "Because you travel for work, we need your employer's details.":
            "Comme vous voyagez pour le travail, il nous faut les coordonnées de votre employeur.",
        "Employer name": "Nom de l'employeur",
        "Employer name is required.": "Le nom de l'employeur est obligatoire.",
        "Use at most 120 characters.": "120 caractères au maximum.",
        "City": "Ville",
        "The employer's city is required.": "La ville de l'employeur est obligatoire.",
        "Use at most 80 characters.": "80 caractères au maximum.",
        "Passport document": "Document de passeport",
        "Document number": "Numéro du document",
        "C01X00T47": "C01X00T47",
        "The document number is required.": "Le numéro du document est obligatoire.",
        "Use 6 to 9 capital letters or digits.": "Utilisez 6 à 9 lettres majuscules ou chiffres.",
        "Expiry date": "Date d'expiration",
        "The expiry date is required.": "La date d'expiration est obligatoire.",
        "Use a valid date; the passport must not have expired.":
            "Indiquez une date valide ; le passeport ne doit pas être expiré.",
        "Expiry date (YYYY-MM-DD)": "Date d'expiration (AAAA-MM-JJ)",
        "2031-12-31": "2031-12-31",
        "Write the date as YYYY-MM-DD.": "Écrivez la date au format AAAA-MM-JJ.",
        "Contact": "Contact",
        "E-mail": "E-mail",
        "Your e-mail address is required.": "Votre adresse e-mail est obligatoire.",
        "Enter a valid e-mail address.": "Saisissez une adresse e-mail valide.",
        "Confirm e-mail": "Confirmez l'e-mail",
        "Please confirm your e-mail address.": "Veuillez confirmer votre adresse e-mail.",
        "The e-mail addresses do not match.": "Les adresses e-mail ne correspondent pas.",
        "Check and send": "Vérifier et envoyer",
        "Type your e-mail address once more: we send your passport news there.":
            "Saisissez à nouveau votre adresse e-mail : nous y enverrons les nouvelles de votre passeport.",
        "Send application": "Envoyer la demande",
        "Thank you": "Merci",
        "We have your application and will e-mail you within five working days.":
            "Nous avons reçu votre demande et vous écrirons sous cinq jours ouvrés.",
        "Update required": "Mise à jour nécessaire",
        "Please update the app to continue your passport application.":
            "Veuillez mettre à jour l'application pour poursuivre votre demande de passeport.",
        "This step needs a newer version of the app.":
            "Cette étape nécessite une version plus récente de l'application.",
    ]
}
