/** Brazilian Portuguese texts of the core's pages and e-mail. */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const ptBR: Translation<CoreMessages> = {
  "signIn.title": "Entrar",
  "signIn.continueTo": "para continuar em {host}",
  "signIn.withProvider": "Entrar com {provider}",
  "signIn.email": "E-mail",
  "signIn.emailForLink": "E-mail para o link de acesso",
  "signIn.emailForPasskey": "E-mail para a chave de acesso",
  "signIn.passkey.signIn": "Entrar com chave de acesso",
  "signIn.passkey.create": "Criar uma chave de acesso",
  "signIn.passkey.needsScript": "As chaves de acesso precisam do JavaScript ativado.",
  "signIn.passkey.error.closed":
    "A solicitação da chave de acesso foi fechada ou expirou. Tente de novo.",
  "signIn.passkey.error.exists": "Este dispositivo já tem uma chave de acesso para esta conta.",
  "signIn.passkey.error.refused":
    "Não é possível criar uma chave de acesso para este endereço. Se você já tem uma conta, entre primeiro.",
  "signIn.passkey.error.createFailed": "Não foi possível criar a chave de acesso. Tente de novo.",
  "signIn.passkey.error.signInFailed":
    "Não foi possível entrar com a chave de acesso. Tente de novo.",
  "signIn.passkey.error.unsupported": "Este navegador não é compatível com chaves de acesso.",
  "signIn.group.email": "Receber um link de acesso por e-mail",
  "signIn.group.password": "Senha",
  "signIn.group.passkey": "Chave de acesso",
  "signIn.group.oauth": "Usar uma conta que você já tem",
  "signIn.signedInAs": "Você entrou como {user} — vincule outro método abaixo ou {signOut}.",
  "signIn.signedInAs.signOut": "saia",
  "signIn.or": "ou",
  "signIn.noMethods": "Nenhum método de acesso está configurado.",

  "signIn.error.Signin": "Não foi possível entrar. Tente de novo ou escolha outra forma de acesso.",
  "signIn.error.OAuthSignin": "Não conseguimos iniciar o acesso com esse provedor. Tente de novo.",
  "signIn.error.OAuthCallbackError": "O acesso com esse provedor não foi concluído. Tente de novo.",
  "signIn.error.CreateAccount":
    "Não conseguimos criar sua conta. Tente de novo ou escolha outra forma de acesso.",
  "signIn.error.Callback": "Algo deu errado ao fazer seu login. Tente de novo.",
  "signIn.error.AccountNotLinked":
    "Para confirmar sua identidade, entre com o mesmo método que você usou ao se cadastrar.",
  "signIn.error.EmailSignin":
    "Não conseguimos enviar o e-mail de acesso. Confira o endereço e tente de novo.",
  "signIn.error.CredentialsSignin":
    "Não foi possível entrar. Confira se os dados informados estão corretos.",
  "signIn.error.SessionRequired": "Entre para acessar esta página.",
  "signIn.error.MissingCSRF": "Seu formulário de acesso expirou. Tente de novo.",
  "signIn.error.Verification":
    "Esse link de acesso não é mais válido. Ele pode já ter sido usado ou ter expirado.",
  "signIn.error.WebAuthnVerificationError":
    "Não conseguimos verificar sua chave de acesso. Tente de novo.",
  "signIn.error.RateLimited": "Muitas tentativas de acesso. Aguarde um minuto e tente de novo.",
  "signIn.error.default": "Não foi possível entrar. Tente de novo.",
  "signIn.error.addressRefused":
    "Esse endereço de e-mail não foi aceito. {reason} Corrija-o e tente de novo.",

  "address.address-required": "Digite seu endereço de e-mail.",
  "address.address-too-long": "Esse endereço de e-mail é longo demais.",
  "address.address-at-lookalike":
    "Esse endereço de e-mail contém um caractere parecido com @, mas que não é um @.",
  "address.address-quoted": "Endereços de e-mail com aspas não são aceitos.",
  "address.address-one-at": "Um endereço de e-mail tem exatamente um @.",
  "address.address-local-part":
    "A parte antes do @ contém caracteres que um endereço não pode ter.",
  "address.address-domain": "A parte depois do @ não é um nome de domínio (como example.com).",

  "signOut.title": "Sair",
  "signOut.question": "Tem certeza de que deseja sair?",
  "signOut.submit": "Sair",
  "signOut.cancel": "Cancelar",

  "error.Configuration.title": "Erro no servidor",
  "error.Configuration.message":
    "Há um problema na configuração do servidor. Consulte os logs do servidor para mais informações.",
  "error.AccessDenied.title": "Acesso negado",
  "error.AccessDenied.message": "Você não tem permissão para entrar.",
  "error.Verification.title": "Não foi possível entrar",
  "error.Verification.message":
    "O link de acesso não é mais válido. Ele pode já ter sido usado ou ter expirado.",
  "error.UserBanned.title": "Conta suspensa",
  "error.UserBanned.message":
    "Esta conta está suspensa e não pode entrar. Se você acha que isso é um erro, fale com o suporte do site.",
  "error.SignOutError.title": "Saída incompleta",
  "error.SignOutError.message":
    "Você saiu neste dispositivo, mas sua sessão não pôde ser encerrada em todos os lugares agora: uma cópia dela em outro dispositivo ainda pode estar conectada. Se você entrou em um dispositivo que não controla mais, fale com o suporte do site.",
  "error.default.title": "Algo deu errado",
  "error.default.message": "Ocorreu um erro inesperado. Tente de novo.",
  "error.homePage": "Ir para a página inicial",
  "error.backToSignIn": "Voltar para o login",
  "error.details": "Detalhes (modo de depuração)",

  "page.goTo": "Ir para {host}",

  "verifyRequest.title": "Confira seu e-mail",
  "verifyRequest.sent": "Enviamos um link de acesso para você.",
  "verifyRequest.openLink":
    "Abra o link do e-mail para concluir o acesso. Você pode fechar esta aba.",
  "verifyRequest.noEmail": "Não recebeu? Confira a pasta de spam ou {tryAgain}.",
  "verifyRequest.tryAgain": "tente de novo",
  "verifyRequest.code.label": "Ou digite o código de 6 dígitos do e-mail",
  "verifyRequest.code.submit": "Entrar",
  "verifyRequest.code.CodeInvalid":
    "Esse código não está correto. Confira o e-mail e tente novamente.",
  "verifyRequest.code.CodeExpired":
    "Este código não pode mais ser usado: expirou, já foi usado ou foi tentado vezes demais. Peça um novo e-mail.",
  "verifyRequest.code.RateLimited": "Tentativas demais. Aguarde um minuto e tente novamente.",

  "email.subject": "Entrar em {host}",
  "email.preview": "Seu link de acesso para {host}. Ele expira em {lifetime}.",
  "email.pressButton": "Toque no botão abaixo para entrar.",
  "email.thisLinkExpires": "Este link expira em {lifetime} e só pode ser usado uma vez.",
  "email.theLinkExpires": "O link expira em {lifetime} e só pode ser usado uma vez.",
  "email.button": "Entrar",
  "email.orCode": "Ou digite este código:",
  "email.copyLink": "Se o botão não funcionar, copie este link no seu navegador:",
  "email.openLink": "Abra este link para entrar:",
  "email.ignore": "Se você não pediu para entrar, pode ignorar este e-mail com segurança.",
  "email.neverForward": "Nunca o encaminhe: qualquer pessoa com o link pode entrar como você.",
};
