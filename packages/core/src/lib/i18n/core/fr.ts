/** French texts of the core's pages and e-mail. */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const fr: Translation<CoreMessages> = {
  "signIn.title": "Connexion",
  "signIn.continueTo": "pour continuer vers {host}",
  "signIn.withProvider": "Se connecter avec {provider}",
  "signIn.email": "E-mail",
  "signIn.emailForLink": "E-mail pour le lien de connexion",
  "signIn.emailForPasskey": "E-mail pour la clé d’accès",
  "signIn.passkey.signIn": "Se connecter avec une clé d’accès",
  "signIn.passkey.create": "Créer une clé d’accès",
  "signIn.passkey.needsScript": "Les clés d’accès nécessitent que JavaScript soit activé.",
  "signIn.passkey.error.closed": "La demande de clé d’accès a été fermée ou a expiré. Réessayez.",
  "signIn.passkey.error.exists": "Cet appareil possède déjà une clé d’accès pour ce compte.",
  "signIn.passkey.error.refused":
    "Impossible de créer une clé d’accès pour cette adresse. Si vous avez déjà un compte, connectez-vous d’abord.",
  "signIn.passkey.error.createFailed": "La clé d’accès n’a pas pu être créée. Réessayez.",
  "signIn.passkey.error.signInFailed": "La connexion avec une clé d’accès a échoué. Réessayez.",
  "signIn.passkey.error.unsupported": "Ce navigateur ne prend pas en charge les clés d’accès.",
  "signIn.group.email": "Recevoir un lien de connexion par e-mail",
  "signIn.group.password": "Mot de passe",
  "signIn.group.passkey": "Clé d’accès",
  "signIn.group.oauth": "Utiliser un compte existant",
  "signIn.signedInAs":
    "Connecté en tant que {user} — associez une autre méthode ci-dessous, ou {signOut}.",
  "signIn.signedInAs.signOut": "déconnectez-vous",
  "signIn.or": "ou",
  "signIn.noMethods": "Aucune méthode de connexion n’est configurée.",

  "signIn.error.Signin":
    "La connexion a échoué. Réessayez ou choisissez un autre moyen de vous connecter.",
  "signIn.error.OAuthSignin":
    "Impossible de lancer la connexion avec ce fournisseur. Veuillez réessayer.",
  "signIn.error.OAuthCallbackError":
    "La connexion avec ce fournisseur n’a pas abouti. Veuillez réessayer.",
  "signIn.error.CreateAccount":
    "Impossible de créer votre compte. Réessayez ou choisissez un autre moyen de vous connecter.",
  "signIn.error.Callback": "Un problème est survenu pendant la connexion. Veuillez réessayer.",
  "signIn.error.AccountNotLinked":
    "Pour confirmer votre identité, connectez-vous avec la méthode utilisée lors de votre inscription.",
  "signIn.error.EmailSignin":
    "Impossible d’envoyer l’e-mail de connexion. Vérifiez l’adresse et réessayez.",
  "signIn.error.CredentialsSignin":
    "La connexion a échoué. Vérifiez que les informations saisies sont correctes.",
  "signIn.error.SessionRequired": "Veuillez vous connecter pour accéder à cette page.",
  "signIn.error.MissingCSRF": "Votre formulaire de connexion a expiré. Veuillez réessayer.",
  "signIn.error.Verification":
    "Ce lien de connexion n’est plus valide. Il a peut-être déjà été utilisé ou il a expiré.",
  "signIn.error.WebAuthnVerificationError":
    "Impossible de vérifier votre clé d’accès. Veuillez réessayer.",
  "signIn.error.RateLimited":
    "Trop de tentatives de connexion. Patientez une minute, puis réessayez.",
  "signIn.error.default": "Connexion impossible. Veuillez réessayer.",
  "signIn.error.addressRefused":
    "Cette adresse e-mail n’a pas été acceptée. {reason} Corrigez-la et réessayez.",

  "address.address-required": "Saisissez votre adresse e-mail.",
  "address.address-too-long": "Cette adresse e-mail est trop longue.",
  "address.address-at-lookalike":
    "Cette adresse e-mail contient un caractère qui ressemble à @ mais n’en est pas un.",
  "address.address-quoted": "Les adresses e-mail avec des guillemets ne sont pas acceptées.",
  "address.address-one-at": "Une adresse e-mail contient exactement un @.",
  "address.address-local-part":
    "La partie avant le @ contient des caractères interdits dans une adresse.",
  "address.address-domain": "La partie après le @ n’est pas un nom de domaine (comme example.com).",

  "signOut.title": "Déconnexion",
  "signOut.question": "Voulez-vous vraiment vous déconnecter ?",
  "signOut.submit": "Se déconnecter",
  "signOut.cancel": "Annuler",

  "error.Configuration.title": "Erreur du serveur",
  "error.Configuration.message":
    "La configuration du serveur pose problème. Consultez les journaux du serveur pour en savoir plus.",
  "error.AccessDenied.title": "Accès refusé",
  "error.AccessDenied.message": "Vous n’êtes pas autorisé à vous connecter.",
  "error.Verification.title": "Connexion impossible",
  "error.Verification.message":
    "Le lien de connexion n’est plus valide. Il a peut-être déjà été utilisé ou il a expiré.",
  "error.UserBanned.title": "Compte suspendu",
  "error.UserBanned.message":
    "Ce compte est suspendu et ne peut pas se connecter. Si vous pensez qu’il s’agit d’une erreur, contactez l’assistance du site.",
  "error.SignOutError.title": "Déconnexion incomplète",
  "error.SignOutError.message":
    "Vous êtes déconnecté sur cet appareil, mais votre session n’a pas pu être fermée partout pour le moment : une copie sur un autre appareil est peut-être encore connectée. Si vous vous êtes connecté sur un appareil que vous ne contrôlez plus, contactez l’assistance du site.",
  "error.default.title": "Un problème est survenu",
  "error.default.message": "Une erreur inattendue s’est produite. Veuillez réessayer.",
  "error.homePage": "Aller à la page d’accueil",
  "error.backToSignIn": "Retour à la connexion",
  "error.details": "Détails (mode débogage)",

  "page.goTo": "Aller sur {host}",

  "verifyRequest.title": "Consultez vos e-mails",
  "verifyRequest.sent": "Nous vous avons envoyé un lien de connexion.",
  "verifyRequest.openLink":
    "Ouvrez le lien dans l’e-mail pour terminer la connexion. Vous pouvez fermer cet onglet.",
  "verifyRequest.noEmail":
    "Pas d’e-mail ? Vérifiez votre dossier de courrier indésirable ou {tryAgain}.",
  "verifyRequest.tryAgain": "réessayez",
  "verifyRequest.code.label": "Ou saisissez le code à 6 chiffres de l’e-mail",
  "verifyRequest.code.submit": "Se connecter",
  "verifyRequest.code.CodeInvalid": "Ce code n’est pas correct. Vérifiez l’e-mail et réessayez.",
  "verifyRequest.code.CodeExpired":
    "Ce code ne peut plus être utilisé : il a expiré, a déjà servi ou a été essayé trop souvent. Demandez un nouvel e-mail.",
  "verifyRequest.code.RateLimited": "Trop de tentatives. Attendez une minute, puis réessayez.",

  "email.subject": "Connexion à {host}",
  "email.preview": "Votre lien de connexion pour {host}. Il expire dans {lifetime}.",
  "email.pressButton": "Cliquez sur le bouton ci-dessous pour vous connecter.",
  "email.thisLinkExpires": "Ce lien expire dans {lifetime} et ne peut être utilisé qu’une fois.",
  "email.theLinkExpires": "Le lien expire dans {lifetime} et ne peut être utilisé qu’une fois.",
  "email.button": "Se connecter",
  "email.orCode": "Ou saisissez ce code :",
  "email.copyLink": "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :",
  "email.openLink": "Ouvrez ce lien pour vous connecter :",
  "email.ignore":
    "Si vous n’avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail sans risque.",
  "email.neverForward":
    "Ne le transférez jamais : toute personne disposant du lien peut se connecter à votre place.",
};
