/** The password pages in the languages Tessera ships besides English. */
import type { Translation } from "../../../lib/i18n/messages.js";
import type { PasswordMessages } from "./en.js";

type T = Translation<PasswordMessages>;

export const de: T = {
  "password.email": "E-Mail",
  "password.password": "Passwort",
  "password.code": "Code",
  "password.continue": "Weiter",
  "password.signIn.title": "Anmelden",
  "password.signIn.subtitle": "Melden Sie sich mit Ihrer E-Mail-Adresse und Ihrem Passwort an.",
  "password.signIn.submit": "Anmelden",
  "password.signIn.createAccount": "Konto erstellen",
  "password.signIn.forgot": "Passwort vergessen?",
  "password.signUp.title": "Konto erstellen",
  "password.signUp.subtitle":
    "Verwenden Sie mindestens {minLength} Zeichen; am besten eignet sich ein langer Satz.",
  "password.signUp.name": "Name (optional)",
  "password.signUp.submit": "Konto erstellen",
  "password.signUp.haveAccount": "Ich habe schon ein Konto",
  "password.verify.title": "Prüfen Sie Ihre E-Mails",
  "password.verify.subtitle":
    "Geben Sie den 6-stelligen Code aus unserer E-Mail ein oder folgen Sie dem Link darin.",
  "password.forgot.title": "Passwort zurücksetzen",
  "password.forgot.subtitle": "Wir schicken Ihnen einen Link und einen Code per E-Mail.",
  "password.forgot.submit": "Senden",
  "password.reset.title": "Neues Passwort wählen",
  "password.reset.subtitle":
    "Geben Sie den 6-stelligen Code aus unserer E-Mail und Ihr neues Passwort ein.",
  "password.reset.submit": "Passwort festlegen und anmelden",
  "password.change.title": "Passwort ändern",
  "password.change.subtitle": "Andere Geräte werden abgemeldet; dieses Gerät bleibt angemeldet.",
  "password.change.current": "Aktuelles Passwort",
  "password.change.submit": "Passwort ändern",
  "password.delete.title": "Konto löschen",
  "password.delete.subtitle":
    "Dadurch wird Ihr Konto gelöscht und Sie werden überall abgemeldet. Das lässt sich nicht rückgängig machen.",
  "password.delete.submit": "Mein Konto löschen",
  "password.notice.sent":
    "Falls diese Adresse E-Mails empfangen kann, haben wir ihr eine Nachricht mit einem Code geschickt.",
  "password.error.tooShort": "Verwenden Sie mindestens {minLength} Zeichen.",
  "password.error.tooLong": "Verwenden Sie höchstens {maxLength} Zeichen.",
  "password.error.breached":
    "Dieses Passwort taucht in bekannten Datenlecks auf. Wählen Sie ein anderes.",
  "password.error.checkUnavailable":
    "Passwörter können gerade nicht geprüft werden. Versuchen Sie es in ein paar Minuten erneut.",
  "password.error.wrongCode":
    "Dieser Code hat nicht funktioniert oder ist abgelaufen. Prüfen Sie ihn oder fordern Sie einen neuen an.",
  "password.error.tooMany":
    "Zu viele Versuche. Warten Sie eine Minute und versuchen Sie es dann erneut.",
  "password.error.signInFirst": "Melden Sie sich zuerst an.",
  "password.error.wrongCurrentPassword": "Das ist nicht Ihr aktuelles Passwort.",
  "password.error.wrongPassword": "Das ist nicht Ihr Passwort.",
  "password.error.emailRequired": "Geben Sie eine E-Mail-Adresse ein.",
  "password.error.sameEmail": "Das ist bereits Ihre Adresse.",
  "password.changeEmail.title": "E-Mail-Adresse ändern",
  "password.changeEmail.subtitle":
    "Wir schicken einen Code an die neue Adresse; Ihr Konto zieht dorthin um, sobald Sie ihn eingeben.",
  "password.changeEmail.newEmail": "Neue E-Mail-Adresse",
  "password.changeEmail.submit": "Code senden",
  "password.confirmEmail.title": "Neue Adresse bestätigen",
  "password.confirmEmail.subtitle":
    "Geben Sie den 6-stelligen Code ein, den wir an die neue Adresse geschickt haben, oder folgen Sie dem Link in dieser E-Mail.",
  "password.confirmEmail.submit": "Bestätigen",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "Bestätigen Sie Ihre neue Adresse für {host}",
  "password.changeEmailMail.preheader":
    "Bestätigen Sie {email} als Ihre Adresse für {host}. Gültig für {lifetime}.",
  "password.changeEmailMail.heading": "Bestätigen Sie Ihre neue E-Mail-Adresse",
  "password.changeEmailMail.intro":
    "Sie möchten {email} für Ihr Konto bei {host} verwenden. Drücken Sie die Schaltfläche unten oder geben Sie den Code ein, um dies zu bestätigen. Bis dahin bleibt Ihre alte Adresse in Gebrauch.",
  "password.changeEmailMail.expiry":
    "Der Link und der Code sind {lifetime} gültig und können nur einmal verwendet werden.",
  "password.changeEmailMail.button": "Neue Adresse bestätigen",
  "password.changeEmailMail.codeLabel": "Oder geben Sie diesen Code ein:",
  "password.changeEmailMail.footer":
    "Wenn Sie dies nicht angefordert haben, ignorieren Sie diese E-Mail: Nichts ändert sich, solange der Code nicht eingegeben wird.",
  "password.emailChangedMail.subject": "Ihre Adresse für {host} wurde geändert",
  "password.emailChangedMail.preheader": "Ihr Konto bei {host} verwendet jetzt {email}.",
  "password.emailChangedMail.heading": "Ihre E-Mail-Adresse wurde geändert",
  "password.emailChangedMail.intro":
    "Die E-Mail-Adresse Ihres Kontos bei {host} wurde in {email} geändert. Anmelde-E-Mails und Passwort-Zurücksetzungen gehen jetzt dorthin, und alle Sitzungen des Kontos wurden abgemeldet.",
  "password.emailChangedMail.action":
    "Wenn Sie diese Änderung nicht vorgenommen haben, kontrolliert möglicherweise jemand anderes Ihr Konto: Setzen Sie Ihr Passwort sofort über die Schaltfläche unten zurück und wenden Sie sich an die Website.",
  "password.emailChangedMail.button": "Passwort zurücksetzen",
  "password.emailChangedMail.footer":
    "Diese Nachricht ging an Ihre bisherige Adresse, die das Konto nicht mehr verwendet.",
};

export const fr: T = {
  "password.email": "E-mail",
  "password.password": "Mot de passe",
  "password.code": "Code",
  "password.continue": "Continuer",
  "password.signIn.title": "Connexion",
  "password.signIn.subtitle": "Connectez-vous avec votre adresse e-mail et votre mot de passe.",
  "password.signIn.submit": "Se connecter",
  "password.signIn.createAccount": "Créer un compte",
  "password.signIn.forgot": "Mot de passe oublié ?",
  "password.signUp.title": "Créer un compte",
  "password.signUp.subtitle":
    "Utilisez au moins {minLength} caractères ; une longue phrase est idéale.",
  "password.signUp.name": "Nom (facultatif)",
  "password.signUp.submit": "Créer le compte",
  "password.signUp.haveAccount": "J’ai déjà un compte",
  "password.verify.title": "Consultez vos e-mails",
  "password.verify.subtitle":
    "Saisissez le code à 6 chiffres que nous vous avons envoyé, ou suivez le lien de cet e-mail.",
  "password.forgot.title": "Réinitialiser votre mot de passe",
  "password.forgot.subtitle": "Nous vous enverrons un lien et un code par e-mail.",
  "password.forgot.submit": "Envoyer",
  "password.reset.title": "Choisissez un nouveau mot de passe",
  "password.reset.subtitle":
    "Saisissez le code à 6 chiffres que nous vous avons envoyé et votre nouveau mot de passe.",
  "password.reset.submit": "Définir le mot de passe et se connecter",
  "password.change.title": "Changer de mot de passe",
  "password.change.subtitle": "Vos autres appareils seront déconnectés ; celui-ci reste connecté.",
  "password.change.current": "Mot de passe actuel",
  "password.change.submit": "Changer de mot de passe",
  "password.delete.title": "Supprimer le compte",
  "password.delete.subtitle":
    "Votre compte sera supprimé et vous serez déconnecté partout. Cette action est irréversible.",
  "password.delete.submit": "Supprimer mon compte",
  "password.notice.sent":
    "Si cette adresse peut recevoir des e-mails, nous lui avons envoyé un message avec un code.",
  "password.error.tooShort": "Utilisez au moins {minLength} caractères.",
  "password.error.tooLong": "Utilisez au plus {maxLength} caractères.",
  "password.error.breached":
    "Ce mot de passe figure dans des fuites de données connues. Choisissez-en un autre.",
  "password.error.checkUnavailable":
    "Les mots de passe ne peuvent pas être vérifiés pour le moment. Réessayez dans quelques minutes.",
  "password.error.wrongCode":
    "Ce code n’a pas fonctionné ou a expiré. Vérifiez-le ou demandez-en un nouveau.",
  "password.error.tooMany": "Trop de tentatives. Patientez une minute, puis réessayez.",
  "password.error.signInFirst": "Connectez-vous d’abord.",
  "password.error.wrongCurrentPassword": "Ce n’est pas votre mot de passe actuel.",
  "password.error.wrongPassword": "Ce n’est pas votre mot de passe.",
  "password.error.emailRequired": "Saisissez une adresse e-mail.",
  "password.error.sameEmail": "C’est déjà votre adresse.",
  "password.changeEmail.title": "Changer d’adresse e-mail",
  "password.changeEmail.subtitle":
    "Nous enverrons un code à la nouvelle adresse ; votre compte y sera transféré dès que vous l’aurez saisi.",
  "password.changeEmail.newEmail": "Nouvelle adresse e-mail",
  "password.changeEmail.submit": "Envoyer le code",
  "password.confirmEmail.title": "Confirmez votre nouvelle adresse",
  "password.confirmEmail.subtitle":
    "Saisissez le code à 6 chiffres envoyé à la nouvelle adresse, ou suivez le lien de cet e-mail.",
  "password.confirmEmail.submit": "Confirmer",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "Confirmez votre nouvelle adresse pour {host}",
  "password.changeEmailMail.preheader":
    "Confirmez {email} comme adresse pour {host}. Expire dans {lifetime}.",
  "password.changeEmailMail.heading": "Confirmez votre nouvelle adresse e-mail",
  "password.changeEmailMail.intro":
    "Vous avez demandé à utiliser {email} pour votre compte sur {host}. Appuyez sur le bouton ci-dessous, ou saisissez le code, pour le confirmer. D’ici là, votre ancienne adresse reste utilisée.",
  "password.changeEmailMail.expiry":
    "Le lien et le code expirent dans {lifetime} et ne peuvent servir qu’une fois.",
  "password.changeEmailMail.button": "Confirmer la nouvelle adresse",
  "password.changeEmailMail.codeLabel": "Ou saisissez ce code :",
  "password.changeEmailMail.footer":
    "Si vous n’avez rien demandé, ignorez cet e-mail : rien ne change tant que le code n’est pas saisi.",
  "password.emailChangedMail.subject": "Votre adresse pour {host} a été modifiée",
  "password.emailChangedMail.preheader": "Votre compte sur {host} utilise désormais {email}.",
  "password.emailChangedMail.heading": "Votre adresse e-mail a été modifiée",
  "password.emailChangedMail.intro":
    "L’adresse e-mail de votre compte sur {host} a été remplacée par {email}. Les e-mails de connexion et de réinitialisation du mot de passe y sont désormais envoyés, et toutes les sessions du compte ont été fermées.",
  "password.emailChangedMail.action":
    "Si vous n’êtes pas à l’origine de ce changement, quelqu’un d’autre contrôle peut-être votre compte : réinitialisez immédiatement votre mot de passe avec le bouton ci-dessous et contactez le site.",
  "password.emailChangedMail.button": "Réinitialiser le mot de passe",
  "password.emailChangedMail.footer":
    "Cet avis a été envoyé à votre ancienne adresse, que le compte n’utilise plus.",
};

export const es: T = {
  "password.email": "Correo electrónico",
  "password.password": "Contraseña",
  "password.code": "Código",
  "password.continue": "Continuar",
  "password.signIn.title": "Iniciar sesión",
  "password.signIn.subtitle": "Inicia sesión con tu correo electrónico y tu contraseña.",
  "password.signIn.submit": "Iniciar sesión",
  "password.signIn.createAccount": "Crear cuenta",
  "password.signIn.forgot": "¿Olvidaste tu contraseña?",
  "password.signUp.title": "Crear cuenta",
  "password.signUp.subtitle": "Usa al menos {minLength} caracteres; lo mejor es una frase larga.",
  "password.signUp.name": "Nombre (opcional)",
  "password.signUp.submit": "Crear cuenta",
  "password.signUp.haveAccount": "Ya tengo una cuenta",
  "password.verify.title": "Revisa tu correo",
  "password.verify.subtitle":
    "Introduce el código de 6 dígitos que te enviamos por correo o sigue el enlace de ese correo.",
  "password.forgot.title": "Restablecer la contraseña",
  "password.forgot.subtitle": "Te enviaremos un enlace y un código por correo.",
  "password.forgot.submit": "Enviar",
  "password.reset.title": "Elige una contraseña nueva",
  "password.reset.subtitle":
    "Introduce el código de 6 dígitos que te enviamos por correo y tu nueva contraseña.",
  "password.reset.submit": "Guardar la contraseña e iniciar sesión",
  "password.change.title": "Cambiar la contraseña",
  "password.change.subtitle":
    "Se cerrará la sesión en los demás dispositivos; en este seguirá abierta.",
  "password.change.current": "Contraseña actual",
  "password.change.submit": "Cambiar la contraseña",
  "password.delete.title": "Eliminar la cuenta",
  "password.delete.subtitle":
    "Esto elimina tu cuenta y cierra tu sesión en todas partes. No se puede deshacer.",
  "password.delete.submit": "Eliminar mi cuenta",
  "password.notice.sent":
    "Si esa dirección puede recibir correo, le hemos enviado un mensaje con un código.",
  "password.error.tooShort": "Usa al menos {minLength} caracteres.",
  "password.error.tooLong": "Usa como máximo {maxLength} caracteres.",
  "password.error.breached":
    "Esta contraseña aparece en filtraciones de datos conocidas. Elige otra.",
  "password.error.checkUnavailable":
    "Ahora mismo no se pueden comprobar las contraseñas. Inténtalo de nuevo en unos minutos.",
  "password.error.wrongCode":
    "Ese código no ha funcionado o ha caducado. Revísalo o pide uno nuevo.",
  "password.error.tooMany": "Demasiados intentos. Espera un minuto y vuelve a intentarlo.",
  "password.error.signInFirst": "Primero inicia sesión.",
  "password.error.wrongCurrentPassword": "Esa no es tu contraseña actual.",
  "password.error.wrongPassword": "Esa no es tu contraseña.",
  "password.error.emailRequired": "Introduce una dirección de correo electrónico.",
  "password.error.sameEmail": "Esa ya es tu dirección.",
  "password.changeEmail.title": "Cambiar la dirección de correo",
  "password.changeEmail.subtitle":
    "Enviaremos un código a la nueva dirección; tu cuenta pasará a ella cuando lo introduzcas.",
  "password.changeEmail.newEmail": "Nueva dirección de correo",
  "password.changeEmail.submit": "Enviar código",
  "password.confirmEmail.title": "Confirma tu nueva dirección",
  "password.confirmEmail.subtitle":
    "Introduce el código de 6 dígitos que enviamos a la nueva dirección, o sigue el enlace de ese correo.",
  "password.confirmEmail.submit": "Confirmar",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "Confirma tu nueva dirección para {host}",
  "password.changeEmailMail.preheader":
    "Confirma {email} como tu dirección para {host}. Caduca en {lifetime}.",
  "password.changeEmailMail.heading": "Confirma tu nueva dirección de correo",
  "password.changeEmailMail.intro":
    "Has pedido usar {email} para tu cuenta en {host}. Pulsa el botón de abajo o introduce el código para confirmarlo. Hasta entonces se sigue usando tu dirección anterior.",
  "password.changeEmailMail.expiry":
    "El enlace y el código caducan en {lifetime} y solo se pueden usar una vez.",
  "password.changeEmailMail.button": "Confirmar nueva dirección",
  "password.changeEmailMail.codeLabel": "O introduce este código:",
  "password.changeEmailMail.footer":
    "Si no lo has pedido, ignora este correo: nada cambia hasta que se introduzca el código.",
  "password.emailChangedMail.subject": "Tu dirección para {host} ha cambiado",
  "password.emailChangedMail.preheader": "Tu cuenta en {host} ahora usa {email}.",
  "password.emailChangedMail.heading": "Tu dirección de correo ha cambiado",
  "password.emailChangedMail.intro":
    "La dirección de correo de tu cuenta en {host} se ha cambiado a {email}. Los correos de inicio de sesión y de restablecimiento de contraseña se envían ahora allí, y se han cerrado todas las sesiones de la cuenta.",
  "password.emailChangedMail.action":
    "Si no has hecho este cambio, puede que otra persona controle tu cuenta: restablece tu contraseña ahora mismo con el botón de abajo y ponte en contacto con el sitio.",
  "password.emailChangedMail.button": "Restablecer contraseña",
  "password.emailChangedMail.footer":
    "Este aviso se ha enviado a tu dirección anterior, que la cuenta ya no usa.",
};

export const ptBR: T = {
  "password.email": "E-mail",
  "password.password": "Senha",
  "password.code": "Código",
  "password.continue": "Continuar",
  "password.signIn.title": "Entrar",
  "password.signIn.subtitle": "Entre com seu endereço de e-mail e sua senha.",
  "password.signIn.submit": "Entrar",
  "password.signIn.createAccount": "Criar conta",
  "password.signIn.forgot": "Esqueceu a senha?",
  "password.signUp.title": "Criar conta",
  "password.signUp.subtitle": "Use pelo menos {minLength} caracteres; uma frase longa é o ideal.",
  "password.signUp.name": "Nome (opcional)",
  "password.signUp.submit": "Criar conta",
  "password.signUp.haveAccount": "Já tenho uma conta",
  "password.verify.title": "Confira seu e-mail",
  "password.verify.subtitle":
    "Digite o código de 6 dígitos que enviamos por e-mail ou siga o link desse e-mail.",
  "password.forgot.title": "Redefinir sua senha",
  "password.forgot.subtitle": "Vamos enviar um link e um código por e-mail.",
  "password.forgot.submit": "Enviar",
  "password.reset.title": "Escolha uma nova senha",
  "password.reset.subtitle":
    "Digite o código de 6 dígitos que enviamos por e-mail e sua nova senha.",
  "password.reset.submit": "Definir senha e entrar",
  "password.change.title": "Alterar senha",
  "password.change.subtitle":
    "Os outros dispositivos serão desconectados; este continua conectado.",
  "password.change.current": "Senha atual",
  "password.change.submit": "Alterar senha",
  "password.delete.title": "Excluir conta",
  "password.delete.subtitle":
    "Isso remove sua conta e encerra suas sessões em todos os lugares. Não é possível desfazer.",
  "password.delete.submit": "Excluir minha conta",
  "password.notice.sent":
    "Se esse endereço puder receber e-mails, enviamos uma mensagem com um código para ele.",
  "password.error.tooShort": "Use pelo menos {minLength} caracteres.",
  "password.error.tooLong": "Use no máximo {maxLength} caracteres.",
  "password.error.breached": "Essa senha aparece em vazamentos de dados conhecidos. Escolha outra.",
  "password.error.checkUnavailable":
    "Não é possível verificar senhas agora. Tente de novo em alguns minutos.",
  "password.error.wrongCode": "Esse código não funcionou ou expirou. Confira ou peça um novo.",
  "password.error.tooMany": "Muitas tentativas. Aguarde um minuto e tente de novo.",
  "password.error.signInFirst": "Entre primeiro.",
  "password.error.wrongCurrentPassword": "Essa não é a sua senha atual.",
  "password.error.wrongPassword": "Essa não é a sua senha.",
  "password.error.emailRequired": "Digite um endereço de e-mail.",
  "password.error.sameEmail": "Esse já é o seu endereço.",
  "password.changeEmail.title": "Alterar endereço de e-mail",
  "password.changeEmail.subtitle":
    "Enviaremos um código para o novo endereço; sua conta passa para ele assim que você digitá-lo.",
  "password.changeEmail.newEmail": "Novo endereço de e-mail",
  "password.changeEmail.submit": "Enviar código",
  "password.confirmEmail.title": "Confirme seu novo endereço",
  "password.confirmEmail.subtitle":
    "Digite o código de 6 dígitos que enviamos para o novo endereço ou siga o link desse e-mail.",
  "password.confirmEmail.submit": "Confirmar",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "Confirme seu novo endereço para {host}",
  "password.changeEmailMail.preheader":
    "Confirme {email} como seu endereço para {host}. Expira em {lifetime}.",
  "password.changeEmailMail.heading": "Confirme seu novo endereço de e-mail",
  "password.changeEmailMail.intro":
    "Você pediu para usar {email} na sua conta em {host}. Pressione o botão abaixo, ou digite o código, para confirmar. Até lá, seu endereço antigo continua em uso.",
  "password.changeEmailMail.expiry":
    "O link e o código expiram em {lifetime} e só podem ser usados uma vez.",
  "password.changeEmailMail.button": "Confirmar novo endereço",
  "password.changeEmailMail.codeLabel": "Ou digite este código:",
  "password.changeEmailMail.footer":
    "Se você não pediu isso, ignore este e-mail: nada muda até que o código seja digitado.",
  "password.emailChangedMail.subject": "Seu endereço para {host} foi alterado",
  "password.emailChangedMail.preheader": "Sua conta em {host} agora usa {email}.",
  "password.emailChangedMail.heading": "Seu endereço de e-mail foi alterado",
  "password.emailChangedMail.intro":
    "O endereço de e-mail da sua conta em {host} foi alterado para {email}. E-mails de login e de redefinição de senha agora vão para lá, e todas as sessões da conta foram encerradas.",
  "password.emailChangedMail.action":
    "Se você não fez essa alteração, outra pessoa pode estar controlando sua conta: redefina sua senha imediatamente pelo botão abaixo e entre em contato com o site.",
  "password.emailChangedMail.button": "Redefinir senha",
  "password.emailChangedMail.footer":
    "Este aviso foi enviado para seu endereço anterior, que a conta não usa mais.",
};

export const ja: T = {
  "password.email": "メールアドレス",
  "password.password": "パスワード",
  "password.code": "コード",
  "password.continue": "続ける",
  "password.signIn.title": "ログイン",
  "password.signIn.subtitle": "メールアドレスとパスワードでログインしてください。",
  "password.signIn.submit": "ログイン",
  "password.signIn.createAccount": "アカウントを作成",
  "password.signIn.forgot": "パスワードをお忘れですか？",
  "password.signUp.title": "アカウントを作成",
  "password.signUp.subtitle": "{minLength} 文字以上にしてください。長いフレーズがおすすめです。",
  "password.signUp.name": "名前（任意）",
  "password.signUp.submit": "アカウントを作成",
  "password.signUp.haveAccount": "アカウントをお持ちの方",
  "password.verify.title": "メールを確認してください",
  "password.verify.subtitle":
    "メールでお送りした 6 桁のコードを入力するか、メール内のリンクを開いてください。",
  "password.forgot.title": "パスワードの再設定",
  "password.forgot.subtitle": "リンクとコードをメールでお送りします。",
  "password.forgot.submit": "送信",
  "password.reset.title": "新しいパスワードを設定",
  "password.reset.subtitle":
    "メールでお送りした 6 桁のコードと新しいパスワードを入力してください。",
  "password.reset.submit": "パスワードを設定してログイン",
  "password.change.title": "パスワードの変更",
  "password.change.subtitle": "他の端末はログアウトされます。この端末はログインしたままです。",
  "password.change.current": "現在のパスワード",
  "password.change.submit": "パスワードを変更",
  "password.delete.title": "アカウントの削除",
  "password.delete.subtitle":
    "アカウントが削除され、すべての端末からログアウトされます。この操作は取り消せません。",
  "password.delete.submit": "アカウントを削除",
  "password.notice.sent":
    "このアドレスでメールを受信できる場合は、コードを記載したメールを送信しました。",
  "password.error.tooShort": "{minLength} 文字以上にしてください。",
  "password.error.tooLong": "{maxLength} 文字以内にしてください。",
  "password.error.breached":
    "このパスワードは既知のデータ漏えいに含まれています。別のパスワードを選んでください。",
  "password.error.checkUnavailable":
    "現在パスワードを確認できません。数分後にもう一度お試しください。",
  "password.error.wrongCode":
    "コードが正しくないか、有効期限が切れています。確認するか、新しいコードをリクエストしてください。",
  "password.error.tooMany": "試行回数が多すぎます。1 分ほど待ってから、もう一度お試しください。",
  "password.error.signInFirst": "先にログインしてください。",
  "password.error.wrongCurrentPassword": "現在のパスワードが正しくありません。",
  "password.error.wrongPassword": "パスワードが正しくありません。",
  "password.error.emailRequired": "メールアドレスを入力してください。",
  "password.error.sameEmail": "それはすでにあなたのアドレスです。",
  "password.changeEmail.title": "メールアドレスの変更",
  "password.changeEmail.subtitle":
    "新しいアドレスにコードをメールで送ります。コードを入力すると、アカウントがそのアドレスに移ります。",
  "password.changeEmail.newEmail": "新しいメールアドレス",
  "password.changeEmail.submit": "コードを送信",
  "password.confirmEmail.title": "新しいアドレスの確認",
  "password.confirmEmail.subtitle":
    "新しいアドレスにメールで送った6桁のコードを入力するか、そのメールのリンクを開いてください。",
  "password.confirmEmail.submit": "確認",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "{host} の新しいメールアドレスを確認してください",
  "password.changeEmailMail.preheader":
    "{email} を {host} のメールアドレスとして確認してください。有効期限は {lifetime} です。",
  "password.changeEmailMail.heading": "新しいメールアドレスを確認してください",
  "password.changeEmailMail.intro":
    "{host} のアカウントで {email} を使うよう依頼されました。下のボタンを押すか、コードを入力して確認してください。確認されるまでは、以前のアドレスが引き続き使われます。",
  "password.changeEmailMail.expiry": "リンクとコードの有効期限は {lifetime} で、1 回だけ使えます。",
  "password.changeEmailMail.button": "新しいアドレスを確認",
  "password.changeEmailMail.codeLabel": "またはこのコードを入力してください:",
  "password.changeEmailMail.footer":
    "心当たりがない場合は、このメールを無視してください。コードが入力されない限り何も変わりません。",
  "password.emailChangedMail.subject": "{host} のメールアドレスが変更されました",
  "password.emailChangedMail.preheader": "{host} のアカウントは現在 {email} を使用しています。",
  "password.emailChangedMail.heading": "メールアドレスが変更されました",
  "password.emailChangedMail.intro":
    "{host} のアカウントのメールアドレスが {email} に変更されました。サインインやパスワード再設定のメールは今後そちらに届き、アカウントのすべてのセッションはサインアウトされました。",
  "password.emailChangedMail.action":
    "この変更に心当たりがない場合は、他の誰かがアカウントを操作している可能性があります。すぐに下のボタンからパスワードを再設定し、サイトに連絡してください。",
  "password.emailChangedMail.button": "パスワードを再設定",
  "password.emailChangedMail.footer":
    "このお知らせは、アカウントで使われなくなった以前のアドレスに送信されました。",
};

export const zhCN: T = {
  "password.email": "电子邮箱",
  "password.password": "密码",
  "password.code": "验证码",
  "password.continue": "继续",
  "password.signIn.title": "登录",
  "password.signIn.subtitle": "使用你的邮箱地址和密码登录。",
  "password.signIn.submit": "登录",
  "password.signIn.createAccount": "创建账号",
  "password.signIn.forgot": "忘记密码？",
  "password.signUp.title": "创建账号",
  "password.signUp.subtitle": "至少使用 {minLength} 个字符；最好是一句较长的短语。",
  "password.signUp.name": "姓名（可选）",
  "password.signUp.submit": "创建账号",
  "password.signUp.haveAccount": "我已有账号",
  "password.verify.title": "请查收邮件",
  "password.verify.subtitle": "请输入我们通过邮件发送的 6 位验证码，或点击邮件中的链接。",
  "password.forgot.title": "重置密码",
  "password.forgot.subtitle": "我们会通过邮件向你发送一个链接和验证码。",
  "password.forgot.submit": "发送",
  "password.reset.title": "设置新密码",
  "password.reset.subtitle": "请输入我们通过邮件发送的 6 位验证码和你的新密码。",
  "password.reset.submit": "设置密码并登录",
  "password.change.title": "修改密码",
  "password.change.subtitle": "其他设备将退出登录；此设备保持登录。",
  "password.change.current": "当前密码",
  "password.change.submit": "修改密码",
  "password.delete.title": "删除账号",
  "password.delete.subtitle": "这将删除你的账号并在所有设备上退出登录。此操作无法撤销。",
  "password.delete.submit": "删除我的账号",
  "password.notice.sent": "如果该地址可以接收邮件，我们已向其发送了一封含验证码的邮件。",
  "password.error.tooShort": "请至少使用 {minLength} 个字符。",
  "password.error.tooLong": "最多只能使用 {maxLength} 个字符。",
  "password.error.breached": "此密码出现在已知的数据泄露中。请换一个密码。",
  "password.error.checkUnavailable": "目前无法检查密码。请几分钟后再试。",
  "password.error.wrongCode": "验证码无效或已过期。请检查，或重新获取验证码。",
  "password.error.tooMany": "尝试次数过多。请等待一分钟后再试。",
  "password.error.signInFirst": "请先登录。",
  "password.error.wrongCurrentPassword": "当前密码不正确。",
  "password.error.wrongPassword": "密码不正确。",
  "password.error.emailRequired": "请输入邮箱地址。",
  "password.error.sameEmail": "这已经是你的邮箱地址。",
  "password.changeEmail.title": "更改邮箱地址",
  "password.changeEmail.subtitle": "我们会向新地址发送验证码；输入验证码后，你的账号将改用该地址。",
  "password.changeEmail.newEmail": "新邮箱地址",
  "password.changeEmail.submit": "发送验证码",
  "password.confirmEmail.title": "确认新地址",
  "password.confirmEmail.subtitle": "请输入我们发送到新地址的 6 位验证码，或打开该邮件中的链接。",
  "password.confirmEmail.submit": "确认",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "确认你在 {host} 的新地址",
  "password.changeEmailMail.preheader": "确认将 {email} 作为你在 {host} 的地址。{lifetime}后失效。",
  "password.changeEmailMail.heading": "确认你的新电子邮件地址",
  "password.changeEmailMail.intro":
    "你请求在 {host} 的账户中使用 {email}。请按下方按钮或输入验证码进行确认。在此之前，你的旧地址仍在使用。",
  "password.changeEmailMail.expiry": "链接和验证码将在 {lifetime}后失效，且只能使用一次。",
  "password.changeEmailMail.button": "确认新地址",
  "password.changeEmailMail.codeLabel": "或输入此验证码：",
  "password.changeEmailMail.footer":
    "如果这不是你本人的请求，请忽略此邮件：在输入验证码之前不会有任何更改。",
  "password.emailChangedMail.subject": "你在 {host} 的地址已更改",
  "password.emailChangedMail.preheader": "你在 {host} 的账户现在使用 {email}。",
  "password.emailChangedMail.heading": "你的电子邮件地址已更改",
  "password.emailChangedMail.intro":
    "你在 {host} 的账户的电子邮件地址已更改为 {email}。登录邮件和密码重置邮件今后将发送到该地址，账户的所有会话均已退出。",
  "password.emailChangedMail.action":
    "如果这不是你本人的操作，可能有他人控制了你的账户：请立即通过下方按钮重置密码，并联系该网站。",
  "password.emailChangedMail.button": "重置密码",
  "password.emailChangedMail.footer": "此通知已发送到你以前的地址，账户已不再使用该地址。",
};

export const ar: T = {
  "password.email": "البريد الإلكتروني",
  "password.password": "كلمة المرور",
  "password.code": "الرمز",
  "password.continue": "متابعة",
  "password.signIn.title": "تسجيل الدخول",
  "password.signIn.subtitle": "سجّل الدخول بعنوان بريدك الإلكتروني وكلمة المرور.",
  "password.signIn.submit": "تسجيل الدخول",
  "password.signIn.createAccount": "إنشاء حساب",
  "password.signIn.forgot": "نسيت كلمة المرور؟",
  "password.signUp.title": "إنشاء حساب",
  "password.signUp.subtitle": "الحد الأدنى لعدد الأحرف: {minLength}؛ والأفضل عبارة طويلة.",
  "password.signUp.name": "الاسم (اختياري)",
  "password.signUp.submit": "إنشاء حساب",
  "password.signUp.haveAccount": "لدي حساب بالفعل",
  "password.verify.title": "تحقّق من بريدك الإلكتروني",
  "password.verify.subtitle":
    "أدخل الرمز المكوّن من 6 أرقام الذي أرسلناه إليك، أو افتح الرابط الوارد في تلك الرسالة.",
  "password.forgot.title": "إعادة تعيين كلمة المرور",
  "password.forgot.subtitle": "سنرسل إليك رابطًا ورمزًا بالبريد الإلكتروني.",
  "password.forgot.submit": "إرسال",
  "password.reset.title": "اختر كلمة مرور جديدة",
  "password.reset.subtitle": "أدخل الرمز المكوّن من 6 أرقام الذي أرسلناه إليك وكلمة المرور الجديدة.",
  "password.reset.submit": "تعيين كلمة المرور وتسجيل الدخول",
  "password.change.title": "تغيير كلمة المرور",
  "password.change.subtitle": "سيُسجَّل خروجك من الأجهزة الأخرى؛ ويبقى هذا الجهاز مسجّل الدخول.",
  "password.change.current": "كلمة المرور الحالية",
  "password.change.submit": "تغيير كلمة المرور",
  "password.delete.title": "حذف الحساب",
  "password.delete.subtitle":
    "سيؤدي هذا إلى حذف حسابك وتسجيل خروجك من كل مكان. لا يمكن التراجع عن ذلك.",
  "password.delete.submit": "حذف حسابي",
  "password.notice.sent": "إذا كان هذا العنوان يستقبل البريد، فقد أرسلنا إليه رسالة تحتوي على رمز.",
  "password.error.tooShort": "الحد الأدنى لعدد الأحرف: {minLength}.",
  "password.error.tooLong": "الحد الأقصى لعدد الأحرف: {maxLength}.",
  "password.error.breached": "ظهرت كلمة المرور هذه في تسريبات بيانات معروفة. اختر كلمة أخرى.",
  "password.error.checkUnavailable":
    "لا يمكن التحقق من كلمات المرور الآن. حاول مرة أخرى بعد بضع دقائق.",
  "password.error.wrongCode": "لم يعمل هذا الرمز أو انتهت صلاحيته. تحقّق منه أو اطلب رمزًا جديدًا.",
  "password.error.tooMany": "محاولات كثيرة جدًا. انتظر دقيقة ثم حاول مرة أخرى.",
  "password.error.signInFirst": "سجّل الدخول أولًا.",
  "password.error.wrongCurrentPassword": "هذه ليست كلمة مرورك الحالية.",
  "password.error.wrongPassword": "هذه ليست كلمة مرورك.",
  "password.error.emailRequired": "أدخل عنوان بريد إلكتروني.",
  "password.error.sameEmail": "هذا هو عنوانك بالفعل.",
  "password.changeEmail.title": "تغيير عنوان البريد الإلكتروني",
  "password.changeEmail.subtitle": "سنرسل رمزًا إلى العنوان الجديد؛ وينتقل حسابك إليه بمجرد إدخاله.",
  "password.changeEmail.newEmail": "عنوان البريد الإلكتروني الجديد",
  "password.changeEmail.submit": "إرسال الرمز",
  "password.confirmEmail.title": "تأكيد عنوانك الجديد",
  "password.confirmEmail.subtitle":
    "أدخل الرمز المكوّن من 6 أرقام الذي أرسلناه إلى العنوان الجديد، أو افتح الرابط الموجود في تلك الرسالة.",
  "password.confirmEmail.submit": "تأكيد",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "أكّد عنوانك الجديد لدى {host}",
  "password.changeEmailMail.preheader":
    "أكّد {email} عنوانًا لك لدى {host}. تنتهي صلاحيته خلال {lifetime}.",
  "password.changeEmailMail.heading": "أكّد عنوان بريدك الإلكتروني الجديد",
  "password.changeEmailMail.intro":
    "طلبت استخدام {email} لحسابك لدى {host}. اضغط الزر أدناه أو أدخل الرمز لتأكيده. وحتى ذلك الحين يبقى عنوانك القديم قيد الاستخدام.",
  "password.changeEmailMail.expiry":
    "تنتهي صلاحية الرابط والرمز خلال {lifetime} ولا يمكن استخدامهما إلا مرة واحدة.",
  "password.changeEmailMail.button": "تأكيد العنوان الجديد",
  "password.changeEmailMail.codeLabel": "أو أدخل هذا الرمز:",
  "password.changeEmailMail.footer":
    "إذا لم تطلب ذلك فتجاهل هذه الرسالة: لن يتغير شيء ما لم يُدخَل الرمز.",
  "password.emailChangedMail.subject": "تم تغيير عنوانك لدى {host}",
  "password.emailChangedMail.preheader": "يستخدم حسابك لدى {host} الآن {email}.",
  "password.emailChangedMail.heading": "تم تغيير عنوان بريدك الإلكتروني",
  "password.emailChangedMail.intro":
    "تم تغيير عنوان البريد الإلكتروني لحسابك لدى {host} إلى {email}. تُرسَل رسائل تسجيل الدخول وإعادة تعيين كلمة المرور إليه الآن، وتم تسجيل الخروج من جميع جلسات الحساب.",
  "password.emailChangedMail.action":
    "إذا لم تُجرِ هذا التغيير فربما يتحكم شخص آخر في حسابك: أعد تعيين كلمة المرور فورًا من الزر أدناه وتواصل مع الموقع.",
  "password.emailChangedMail.button": "إعادة تعيين كلمة المرور",
  "password.emailChangedMail.footer":
    "أُرسل هذا الإشعار إلى عنوانك السابق الذي لم يعد الحساب يستخدمه.",
};
