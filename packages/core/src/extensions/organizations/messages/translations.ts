/** The invitation page in the languages Tessera ships besides English. */
import type { Translation } from "../../../lib/i18n/messages.js";
import type { OrganizationMessages } from "./en.js";

type T = Translation<OrganizationMessages>;

export const de: T = {
  "organizations.invitation.title": "Einladung",
  "organizations.invitation.heading": "Sie sind eingeladen",
  "organizations.invitation.openSubtitle": "{organization} lädt Sie ein, als {role} beizutreten.",
  "organizations.invitation.accept": "Einladung annehmen",
  "organizations.invitation.decline": "Ablehnen",
  "organizations.invitation.signedOutSubtitle":
    "Melden Sie sich mit der E-Mail-Adresse an, an die diese Einladung ging, um sie zu sehen und zu beantworten.",
  "organizations.invitation.signIn": "Anmelden",
  "organizations.invitation.otherAddressSubtitle":
    "Diese Einladung ging an eine andere Adresse. Sie sind als {email} angemeldet: Melden Sie sich ab und dann mit der eingeladenen Adresse an.",
  "organizations.invitation.signOut": "Abmelden",
  "organizations.invitation.closedHeading": "Einladung nicht mehr offen",
  "organizations.invitation.closedSubtitle":
    "Diese Einladung wurde bereits beantwortet, zurückgezogen oder ist abgelaufen. Bitten Sie um eine neue, wenn Sie noch beitreten möchten.",
  "organizations.invitation.acceptedHeading": "Willkommen",
  "organizations.invitation.acceptedSubtitle": "Sie sind jetzt Mitglied von {organization}.",
  "organizations.invitation.declinedHeading": "Einladung abgelehnt",
  "organizations.invitation.declinedSubtitle":
    "Sie haben die Einladung zu {organization} abgelehnt.",
  "organizations.invitation.continue": "Weiter",
};

export const fr: T = {
  "organizations.invitation.title": "Invitation",
  "organizations.invitation.heading": "Vous êtes invité",
  "organizations.invitation.openSubtitle":
    "{organization} vous invite à rejoindre l’organisation en tant que {role}.",
  "organizations.invitation.accept": "Accepter l’invitation",
  "organizations.invitation.decline": "Refuser",
  "organizations.invitation.signedOutSubtitle":
    "Connectez-vous avec l’adresse e-mail à laquelle cette invitation a été envoyée pour la voir et y répondre.",
  "organizations.invitation.signIn": "Se connecter",
  "organizations.invitation.otherAddressSubtitle":
    "Cette invitation a été envoyée à une autre adresse. Vous êtes connecté en tant que {email} : déconnectez-vous, puis connectez-vous avec l’adresse invitée.",
  "organizations.invitation.signOut": "Se déconnecter",
  "organizations.invitation.closedHeading": "Invitation plus valable",
  "organizations.invitation.closedSubtitle":
    "Cette invitation a déjà reçu une réponse, a été révoquée ou a expiré. Demandez-en une nouvelle si vous souhaitez toujours rejoindre l’organisation.",
  "organizations.invitation.acceptedHeading": "Bienvenue",
  "organizations.invitation.acceptedSubtitle": "Vous êtes maintenant membre de {organization}.",
  "organizations.invitation.declinedHeading": "Invitation refusée",
  "organizations.invitation.declinedSubtitle": "Vous avez refusé l’invitation de {organization}.",
  "organizations.invitation.continue": "Continuer",
};

export const es: T = {
  "organizations.invitation.title": "Invitación",
  "organizations.invitation.heading": "Te han invitado",
  "organizations.invitation.openSubtitle": "{organization} te invita a unirte como {role}.",
  "organizations.invitation.accept": "Aceptar la invitación",
  "organizations.invitation.decline": "Rechazar",
  "organizations.invitation.signedOutSubtitle":
    "Inicia sesión con la dirección de correo a la que se envió esta invitación para verla y responderla.",
  "organizations.invitation.signIn": "Iniciar sesión",
  "organizations.invitation.otherAddressSubtitle":
    "Esta invitación se envió a otra dirección. Has iniciado sesión como {email}: cierra la sesión y vuelve a entrar con la dirección invitada.",
  "organizations.invitation.signOut": "Cerrar sesión",
  "organizations.invitation.closedHeading": "La invitación ya no está abierta",
  "organizations.invitation.closedSubtitle":
    "Esta invitación ya se respondió, se revocó o caducó. Pide una nueva si todavía quieres unirte.",
  "organizations.invitation.acceptedHeading": "Te damos la bienvenida",
  "organizations.invitation.acceptedSubtitle": "Ahora eres miembro de {organization}.",
  "organizations.invitation.declinedHeading": "Invitación rechazada",
  "organizations.invitation.declinedSubtitle": "Rechazaste la invitación a {organization}.",
  "organizations.invitation.continue": "Continuar",
};

export const ptBR: T = {
  "organizations.invitation.title": "Convite",
  "organizations.invitation.heading": "Você foi convidado",
  "organizations.invitation.openSubtitle": "{organization} convida você a participar como {role}.",
  "organizations.invitation.accept": "Aceitar convite",
  "organizations.invitation.decline": "Recusar",
  "organizations.invitation.signedOutSubtitle":
    "Entre com o endereço de e-mail para o qual este convite foi enviado para vê-lo e respondê-lo.",
  "organizations.invitation.signIn": "Entrar",
  "organizations.invitation.otherAddressSubtitle":
    "Este convite foi enviado para outro endereço. Você entrou como {email}: saia e entre com o endereço convidado.",
  "organizations.invitation.signOut": "Sair",
  "organizations.invitation.closedHeading": "Convite não está mais aberto",
  "organizations.invitation.closedSubtitle":
    "Este convite já foi respondido, revogado ou expirou. Peça um novo se ainda quiser participar.",
  "organizations.invitation.acceptedHeading": "Boas-vindas",
  "organizations.invitation.acceptedSubtitle": "Agora você é membro de {organization}.",
  "organizations.invitation.declinedHeading": "Convite recusado",
  "organizations.invitation.declinedSubtitle": "Você recusou o convite de {organization}.",
  "organizations.invitation.continue": "Continuar",
};

export const ja: T = {
  "organizations.invitation.title": "招待",
  "organizations.invitation.heading": "招待が届いています",
  "organizations.invitation.openSubtitle":
    "{organization} から {role} として参加するよう招待されています。",
  "organizations.invitation.accept": "招待を承諾",
  "organizations.invitation.decline": "辞退",
  "organizations.invitation.signedOutSubtitle":
    "この招待を表示して回答するには、招待が送られたメールアドレスでログインしてください。",
  "organizations.invitation.signIn": "ログイン",
  "organizations.invitation.otherAddressSubtitle":
    "この招待は別のアドレスに送られました。現在 {email} でログインしています。ログアウトしてから、招待されたアドレスでログインしてください。",
  "organizations.invitation.signOut": "ログアウト",
  "organizations.invitation.closedHeading": "この招待は無効です",
  "organizations.invitation.closedSubtitle":
    "この招待はすでに回答済みか、取り消されたか、有効期限が切れています。参加を希望する場合は、新しい招待を依頼してください。",
  "organizations.invitation.acceptedHeading": "ようこそ",
  "organizations.invitation.acceptedSubtitle": "{organization} のメンバーになりました。",
  "organizations.invitation.declinedHeading": "招待を辞退しました",
  "organizations.invitation.declinedSubtitle": "{organization} への招待を辞退しました。",
  "organizations.invitation.continue": "続行",
};

export const zhCN: T = {
  "organizations.invitation.title": "邀请",
  "organizations.invitation.heading": "你收到了邀请",
  "organizations.invitation.openSubtitle": "{organization} 邀请你以 {role} 身份加入。",
  "organizations.invitation.accept": "接受邀请",
  "organizations.invitation.decline": "拒绝",
  "organizations.invitation.signedOutSubtitle":
    "请使用接收此邀请的邮箱地址登录，以查看并回复邀请。",
  "organizations.invitation.signIn": "登录",
  "organizations.invitation.otherAddressSubtitle":
    "此邀请发送给了另一个地址。你当前以 {email} 登录：请先退出，再用受邀地址登录。",
  "organizations.invitation.signOut": "退出登录",
  "organizations.invitation.closedHeading": "邀请已失效",
  "organizations.invitation.closedSubtitle":
    "此邀请已被回复、撤销或已过期。如果仍想加入，请索取新的邀请。",
  "organizations.invitation.acceptedHeading": "欢迎",
  "organizations.invitation.acceptedSubtitle": "你现在是 {organization} 的成员。",
  "organizations.invitation.declinedHeading": "已拒绝邀请",
  "organizations.invitation.declinedSubtitle": "你已拒绝加入 {organization} 的邀请。",
  "organizations.invitation.continue": "继续",
};

export const ar: T = {
  "organizations.invitation.title": "دعوة",
  "organizations.invitation.heading": "لقد تمت دعوتك",
  "organizations.invitation.openSubtitle": "تدعوك {organization} إلى الانضمام بصفة {role}.",
  "organizations.invitation.accept": "قبول الدعوة",
  "organizations.invitation.decline": "رفض",
  "organizations.invitation.signedOutSubtitle":
    "سجّل الدخول بعنوان البريد الإلكتروني الذي أُرسلت إليه هذه الدعوة لتراها وتردّ عليها.",
  "organizations.invitation.signIn": "تسجيل الدخول",
  "organizations.invitation.otherAddressSubtitle":
    "أُرسلت هذه الدعوة إلى عنوان آخر. أنت مسجّل الدخول باسم {email}: سجّل الخروج، ثم سجّل الدخول بالعنوان المدعو.",
  "organizations.invitation.signOut": "تسجيل الخروج",
  "organizations.invitation.closedHeading": "لم تعد الدعوة متاحة",
  "organizations.invitation.closedSubtitle":
    "تم الرد على هذه الدعوة أو إلغاؤها أو انتهت صلاحيتها. اطلب دعوة جديدة إذا كنت لا تزال ترغب في الانضمام.",
  "organizations.invitation.acceptedHeading": "مرحبًا بك",
  "organizations.invitation.acceptedSubtitle": "أصبحت الآن عضوًا في {organization}.",
  "organizations.invitation.declinedHeading": "تم رفض الدعوة",
  "organizations.invitation.declinedSubtitle": "لقد رفضت الدعوة إلى {organization}.",
  "organizations.invitation.continue": "متابعة",
};
