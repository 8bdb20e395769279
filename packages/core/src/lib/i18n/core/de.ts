/** German texts of the core's pages and e-mail. */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const de: Translation<CoreMessages> = {
  "signIn.title": "Anmelden",
  "signIn.continueTo": "um mit {host} fortzufahren",
  "signIn.withProvider": "Mit {provider} anmelden",
  "signIn.email": "E-Mail",
  "signIn.emailForLink": "E-Mail für den Anmeldelink",
  "signIn.emailForPasskey": "E-Mail für den Passkey",
  "signIn.passkey.signIn": "Mit Passkey anmelden",
  "signIn.passkey.create": "Passkey erstellen",
  "signIn.passkey.needsScript": "Für Passkeys muss JavaScript aktiviert sein.",
  "signIn.passkey.error.closed":
    "Die Passkey-Abfrage wurde geschlossen oder ist abgelaufen. Versuchen Sie es erneut.",
  "signIn.passkey.error.exists": "Auf diesem Gerät gibt es bereits einen Passkey für dieses Konto.",
  "signIn.passkey.error.refused":
    "Für diese Adresse kann kein Passkey erstellt werden. Wenn Sie schon ein Konto haben, melden Sie sich zuerst an.",
  "signIn.passkey.error.createFailed":
    "Der Passkey konnte nicht erstellt werden. Versuchen Sie es erneut.",
  "signIn.passkey.error.signInFailed":
    "Die Anmeldung mit dem Passkey ist fehlgeschlagen. Versuchen Sie es erneut.",
  "signIn.passkey.error.unsupported": "Dieser Browser unterstützt keine Passkeys.",
  "signIn.group.email": "Anmeldelink per E-Mail",
  "signIn.group.password": "Passwort",
  "signIn.group.passkey": "Passkey",
  "signIn.group.oauth": "Mit einem bestehenden Konto",
  "signIn.signedInAs":
    "Angemeldet als {user} – verknüpfen Sie unten eine weitere Methode oder {signOut}.",
  "signIn.signedInAs.signOut": "melden Sie sich ab",
  "signIn.or": "oder",
  "signIn.noMethods": "Es sind keine Anmeldemethoden eingerichtet.",

  "signIn.error.Signin":
    "Die Anmeldung ist fehlgeschlagen. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.OAuthSignin":
    "Die Anmeldung bei diesem Anbieter konnte nicht gestartet werden. Bitte versuchen Sie es erneut.",
  "signIn.error.OAuthCallbackError":
    "Die Anmeldung bei diesem Anbieter wurde nicht abgeschlossen. Bitte versuchen Sie es erneut.",
  "signIn.error.CreateAccount":
    "Ihr Konto konnte nicht erstellt werden. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.Callback":
    "Bei der Anmeldung ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.",
  "signIn.error.AccountNotLinked":
    "Um Ihre Identität zu bestätigen, melden Sie sich mit derselben Methode an, mit der Sie sich registriert haben.",
  "signIn.error.EmailSignin":
    "Die Anmelde-E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es erneut.",
  "signIn.error.CredentialsSignin":
    "Die Anmeldung ist fehlgeschlagen. Prüfen Sie, ob Ihre Angaben stimmen.",
  "signIn.error.SessionRequired": "Bitte melden Sie sich an, um diese Seite zu sehen.",
  "signIn.error.MissingCSRF": "Das Anmeldeformular ist abgelaufen. Bitte versuchen Sie es erneut.",
  "signIn.error.Verification":
    "Dieser Anmeldelink ist nicht mehr gültig. Vielleicht wurde er schon verwendet oder er ist abgelaufen.",
  "signIn.error.WebAuthnVerificationError":
    "Ihr Passkey konnte nicht überprüft werden. Bitte versuchen Sie es erneut.",
  "signIn.error.RateLimited":
    "Zu viele Anmeldeversuche. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.",
  "signIn.error.default": "Die Anmeldung ist nicht möglich. Bitte versuchen Sie es erneut.",
  "signIn.error.addressRefused":
    "Diese E-Mail-Adresse wurde nicht akzeptiert. {reason} Korrigieren Sie sie und versuchen Sie es erneut.",

  "address.address-required": "Geben Sie Ihre E-Mail-Adresse ein.",
  "address.address-too-long": "Diese E-Mail-Adresse ist zu lang.",
  "address.address-at-lookalike":
    "Diese E-Mail-Adresse enthält ein Zeichen, das wie ein @ aussieht, aber keines ist.",
  "address.address-quoted": "E-Mail-Adressen mit Anführungszeichen werden nicht akzeptiert.",
  "address.address-one-at": "Eine E-Mail-Adresse enthält genau ein @.",
  "address.address-local-part":
    "Der Teil vor dem @ enthält Zeichen, die in einer Adresse nicht vorkommen dürfen.",
  "address.address-domain": "Der Teil nach dem @ ist kein Domainname (wie example.com).",

  "signOut.title": "Abmelden",
  "signOut.question": "Möchten Sie sich wirklich abmelden?",
  "signOut.submit": "Abmelden",
  "signOut.cancel": "Abbrechen",

  "error.Configuration.title": "Serverfehler",
  "error.Configuration.message":
    "Die Serverkonfiguration ist fehlerhaft. Details stehen in den Serverprotokollen.",
  "error.AccessDenied.title": "Zugriff verweigert",
  "error.AccessDenied.message": "Sie sind nicht berechtigt, sich anzumelden.",
  "error.Verification.title": "Anmeldung nicht möglich",
  "error.Verification.message":
    "Der Anmeldelink ist nicht mehr gültig. Vielleicht wurde er schon verwendet oder er ist abgelaufen.",
  "error.UserBanned.title": "Konto gesperrt",
  "error.UserBanned.message":
    "Dieses Konto ist gesperrt und kann sich nicht anmelden. Wenn Sie das für einen Fehler halten, wenden Sie sich an den Support der Website.",
  "error.SignOutError.title": "Abmeldung unvollständig",
  "error.SignOutError.message":
    "Sie sind auf diesem Gerät abgemeldet, aber Ihre Sitzung konnte gerade nicht überall beendet werden: Eine Kopie davon auf einem anderen Gerät ist womöglich noch angemeldet. Wenn Sie sich auf einem Gerät angemeldet haben, über das Sie keine Kontrolle mehr haben, wenden Sie sich an den Support der Website.",
  "error.default.title": "Etwas ist schiefgelaufen",
  "error.default.message":
    "Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es erneut.",
  "error.homePage": "Zur Startseite",
  "error.backToSignIn": "Zurück zur Anmeldung",
  "error.details": "Details (Debug-Modus)",

  "page.goTo": "Weiter zu {host}",

  "verifyRequest.title": "Prüfen Sie Ihre E-Mails",
  "verifyRequest.sent": "Wir haben Ihnen einen Anmeldelink geschickt.",
  "verifyRequest.openLink":
    "Öffnen Sie den Link in der E-Mail, um die Anmeldung abzuschließen. Sie können diesen Tab schließen.",
  "verifyRequest.noEmail": "Keine E-Mail erhalten? Sehen Sie im Spam-Ordner nach oder {tryAgain}.",
  "verifyRequest.tryAgain": "versuchen Sie es erneut",
  "verifyRequest.code.label": "Oder geben Sie den 6-stelligen Code aus der E-Mail ein",
  "verifyRequest.code.submit": "Anmelden",
  "verifyRequest.code.CodeInvalid":
    "Dieser Code stimmt nicht. Prüfen Sie die E-Mail und versuchen Sie es erneut.",
  "verifyRequest.code.CodeExpired":
    "Dieser Code kann nicht mehr verwendet werden: Er ist abgelaufen, wurde schon verwendet oder zu oft falsch eingegeben. Fordern Sie eine neue E-Mail an.",
  "verifyRequest.code.RateLimited":
    "Zu viele Versuche. Warten Sie eine Minute und versuchen Sie es dann erneut.",

  "email.subject": "Bei {host} anmelden",
  "email.preview": "Ihr Anmeldelink für {host}. Er läuft in {lifetime} ab.",
  "email.pressButton": "Klicken Sie auf die Schaltfläche unten, um sich anzumelden.",
  "email.thisLinkExpires":
    "Dieser Link läuft in {lifetime} ab und kann nur einmal verwendet werden.",
  "email.theLinkExpires": "Der Link läuft in {lifetime} ab und kann nur einmal verwendet werden.",
  "email.button": "Anmelden",
  "email.orCode": "Oder geben Sie diesen Code ein:",
  "email.copyLink":
    "Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
  "email.openLink": "Öffnen Sie diesen Link, um sich anzumelden:",
  "email.ignore":
    "Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail einfach ignorieren.",
  "email.neverForward":
    "Leiten Sie sie niemals weiter: Jeder mit diesem Link kann sich als Sie anmelden.",
};
