/** Spanish texts of the core's pages and e-mail. */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const es: Translation<CoreMessages> = {
  "signIn.title": "Iniciar sesión",
  "signIn.continueTo": "para continuar en {host}",
  "signIn.withProvider": "Iniciar sesión con {provider}",
  "signIn.email": "Correo electrónico",
  "signIn.emailForLink": "Correo para el enlace de inicio de sesión",
  "signIn.emailForPasskey": "Correo para la llave de acceso",
  "signIn.passkey.signIn": "Iniciar sesión con llave de acceso",
  "signIn.passkey.create": "Crear una llave de acceso",
  "signIn.passkey.needsScript": "Las llaves de acceso necesitan JavaScript activado.",
  "signIn.passkey.error.closed":
    "La solicitud de la llave de acceso se cerró o caducó. Inténtalo de nuevo.",
  "signIn.passkey.error.exists": "Este dispositivo ya tiene una llave de acceso para esta cuenta.",
  "signIn.passkey.error.refused":
    "No se puede crear una llave de acceso para esta dirección. Si ya tienes una cuenta, inicia sesión primero.",
  "signIn.passkey.error.createFailed": "No se pudo crear la llave de acceso. Inténtalo de nuevo.",
  "signIn.passkey.error.signInFailed":
    "No se pudo iniciar sesión con la llave de acceso. Inténtalo de nuevo.",
  "signIn.passkey.error.unsupported": "Este navegador no admite llaves de acceso.",
  "signIn.group.email": "Enviarme un enlace de inicio de sesión",
  "signIn.group.password": "Contraseña",
  "signIn.group.passkey": "Llave de acceso",
  "signIn.group.oauth": "Usar una cuenta que ya tienes",
  "signIn.signedInAs": "Has iniciado sesión como {user}: vincula otro método abajo o {signOut}.",
  "signIn.signedInAs.signOut": "cierra sesión",
  "signIn.or": "o",
  "signIn.noMethods": "No hay ningún método de inicio de sesión configurado.",

  "signIn.error.Signin":
    "No se pudo iniciar sesión. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.OAuthSignin":
    "No pudimos empezar a iniciar tu sesión con ese proveedor. Inténtalo de nuevo.",
  "signIn.error.OAuthCallbackError":
    "El inicio de sesión con ese proveedor no se completó. Inténtalo de nuevo.",
  "signIn.error.CreateAccount":
    "No pudimos crear tu cuenta. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.Callback": "Algo salió mal al iniciar tu sesión. Inténtalo de nuevo.",
  "signIn.error.AccountNotLinked":
    "Para confirmar tu identidad, inicia sesión con el mismo método que usaste al registrarte.",
  "signIn.error.EmailSignin":
    "No pudimos enviar el correo de inicio de sesión. Revisa la dirección e inténtalo de nuevo.",
  "signIn.error.CredentialsSignin":
    "No se pudo iniciar sesión. Comprueba que los datos que has introducido son correctos.",
  "signIn.error.SessionRequired": "Inicia sesión para acceder a esta página.",
  "signIn.error.MissingCSRF": "Tu formulario de inicio de sesión caducó. Inténtalo de nuevo.",
  "signIn.error.Verification":
    "Ese enlace de inicio de sesión ya no es válido. Puede que ya se haya usado o que haya caducado.",
  "signIn.error.WebAuthnVerificationError":
    "No pudimos verificar tu llave de acceso. Inténtalo de nuevo.",
  "signIn.error.RateLimited":
    "Demasiados intentos de inicio de sesión. Espera un minuto y vuelve a intentarlo.",
  "signIn.error.default": "No se puede iniciar sesión. Inténtalo de nuevo.",
  "signIn.error.addressRefused":
    "No se aceptó esa dirección de correo. {reason} Corrígela e inténtalo de nuevo.",

  "address.address-required": "Introduce tu dirección de correo electrónico.",
  "address.address-too-long": "Esa dirección de correo es demasiado larga.",
  "address.address-at-lookalike":
    "Esa dirección de correo contiene un carácter que parece una @ pero no lo es.",
  "address.address-quoted": "No se aceptan direcciones de correo con comillas.",
  "address.address-one-at": "Una dirección de correo tiene exactamente una @.",
  "address.address-local-part":
    "La parte anterior a la @ contiene caracteres que una dirección no puede tener.",
  "address.address-domain":
    "La parte posterior a la @ no es un nombre de dominio (como example.com).",

  "signOut.title": "Cerrar sesión",
  "signOut.question": "¿Seguro que quieres cerrar sesión?",
  "signOut.submit": "Cerrar sesión",
  "signOut.cancel": "Cancelar",

  "error.Configuration.title": "Error del servidor",
  "error.Configuration.message":
    "Hay un problema con la configuración del servidor. Consulta los registros del servidor para obtener más información.",
  "error.AccessDenied.title": "Acceso denegado",
  "error.AccessDenied.message": "No tienes permiso para iniciar sesión.",
  "error.Verification.title": "No se puede iniciar sesión",
  "error.Verification.message":
    "El enlace de inicio de sesión ya no es válido. Puede que ya se haya usado o que haya caducado.",
  "error.UserBanned.title": "Cuenta suspendida",
  "error.UserBanned.message":
    "Esta cuenta está suspendida y no puede iniciar sesión. Si crees que es un error, contacta con el soporte del sitio.",
  "error.SignOutError.title": "Cierre de sesión incompleto",
  "error.SignOutError.message":
    "Has cerrado la sesión en este dispositivo, pero ahora mismo no se ha podido cerrar en todas partes: una copia en otro dispositivo podría seguir con la sesión iniciada. Si iniciaste sesión en un dispositivo que ya no controlas, contacta con el soporte del sitio.",
  "error.default.title": "Algo salió mal",
  "error.default.message": "Se produjo un error inesperado. Inténtalo de nuevo.",
  "error.homePage": "Ir a la página de inicio",
  "error.backToSignIn": "Volver a iniciar sesión",
  "error.details": "Detalles (modo de depuración)",

  "page.goTo": "Ir a {host}",

  "verifyRequest.title": "Revisa tu correo",
  "verifyRequest.sent": "Te hemos enviado un enlace de inicio de sesión.",
  "verifyRequest.openLink":
    "Abre el enlace del correo para terminar de iniciar sesión. Puedes cerrar esta pestaña.",
  "verifyRequest.noEmail": "¿No te llegó? Revisa la carpeta de spam o {tryAgain}.",
  "verifyRequest.tryAgain": "vuelve a intentarlo",
  "verifyRequest.code.label": "O introduce el código de 6 dígitos del correo",
  "verifyRequest.code.submit": "Iniciar sesión",
  "verifyRequest.code.CodeInvalid":
    "Ese código no es correcto. Revisa el correo e inténtalo de nuevo.",
  "verifyRequest.code.CodeExpired":
    "Este código ya no se puede usar: caducó, ya se usó o se intentó demasiadas veces. Solicita un correo nuevo.",
  "verifyRequest.code.RateLimited": "Demasiados intentos. Espera un minuto y vuelve a intentarlo.",

  "email.subject": "Inicia sesión en {host}",
  "email.preview": "Tu enlace de inicio de sesión para {host}. Caduca en {lifetime}.",
  "email.pressButton": "Pulsa el botón de abajo para iniciar sesión.",
  "email.thisLinkExpires": "Este enlace caduca en {lifetime} y solo se puede usar una vez.",
  "email.theLinkExpires": "El enlace caduca en {lifetime} y solo se puede usar una vez.",
  "email.button": "Iniciar sesión",
  "email.orCode": "O introduce este código:",
  "email.copyLink": "Si el botón no funciona, copia este enlace en tu navegador:",
  "email.openLink": "Abre este enlace para iniciar sesión:",
  "email.ignore": "Si no has pedido iniciar sesión, puedes ignorar este correo sin problema.",
  "email.neverForward":
    "No lo reenvíes nunca: cualquiera que tenga el enlace puede iniciar sesión como tú.",
};
