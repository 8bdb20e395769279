/** Arabic texts of the core's pages and e-mail (written right to left). */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const ar: Translation<CoreMessages> = {
  "signIn.title": "تسجيل الدخول",
  "signIn.continueTo": "للمتابعة إلى {host}",
  "signIn.withProvider": "تسجيل الدخول عبر {provider}",
  "signIn.email": "البريد الإلكتروني",
  "signIn.emailForLink": "البريد الإلكتروني لرابط تسجيل الدخول",
  "signIn.emailForPasskey": "البريد الإلكتروني لمفتاح المرور",
  "signIn.passkey.signIn": "تسجيل الدخول بمفتاح مرور",
  "signIn.passkey.create": "إنشاء مفتاح مرور",
  "signIn.passkey.needsScript": "تتطلب مفاتيح المرور تفعيل JavaScript.",
  "signIn.passkey.error.closed": "أُغلقت نافذة مفتاح المرور أو انتهت مهلتها. حاول مرة أخرى.",
  "signIn.passkey.error.exists": "يحتوي هذا الجهاز بالفعل على مفتاح مرور لهذا الحساب.",
  "signIn.passkey.error.refused":
    "لا يمكن إنشاء مفتاح مرور لهذا العنوان. إذا كان لديك حساب بالفعل، فسجّل الدخول أولًا.",
  "signIn.passkey.error.createFailed": "تعذّر إنشاء مفتاح المرور. حاول مرة أخرى.",
  "signIn.passkey.error.signInFailed": "تعذّر تسجيل الدخول بمفتاح المرور. حاول مرة أخرى.",
  "signIn.passkey.error.unsupported": "لا يدعم هذا المتصفح مفاتيح المرور.",
  "signIn.group.email": "أرسل لي رابط تسجيل الدخول بالبريد",
  "signIn.group.password": "كلمة المرور",
  "signIn.group.passkey": "مفتاح المرور",
  "signIn.group.oauth": "استخدم حسابًا لديك",
  "signIn.signedInAs": "سجّلت الدخول باسم {user} — اربط طريقة أخرى أدناه، أو {signOut}.",
  "signIn.signedInAs.signOut": "سجّل الخروج",
  "signIn.or": "أو",
  "signIn.noMethods": "لم يتم إعداد أي طريقة لتسجيل الدخول.",

  "signIn.error.Signin": "تعذّر تسجيل الدخول. حاول مرة أخرى، أو اختر طريقة أخرى لتسجيل الدخول.",
  "signIn.error.OAuthSignin": "تعذّر بدء تسجيل دخولك عبر هذا المزوّد. يُرجى المحاولة مرة أخرى.",
  "signIn.error.OAuthCallbackError":
    "لم يكتمل تسجيل الدخول عبر هذا المزوّد. يُرجى المحاولة مرة أخرى.",
  "signIn.error.CreateAccount":
    "تعذّر إنشاء حسابك. حاول مرة أخرى، أو اختر طريقة أخرى لتسجيل الدخول.",
  "signIn.error.Callback": "حدث خطأ أثناء تسجيل دخولك. يُرجى المحاولة مرة أخرى.",
  "signIn.error.AccountNotLinked":
    "لتأكيد هويتك، سجّل الدخول بالطريقة نفسها التي استخدمتها عند إنشاء حسابك أول مرة.",
  "signIn.error.EmailSignin": "تعذّر إرسال رسالة تسجيل الدخول. تحقّق من العنوان وحاول مرة أخرى.",
  "signIn.error.CredentialsSignin": "تعذّر تسجيل الدخول. تحقّق من صحة البيانات التي أدخلتها.",
  "signIn.error.SessionRequired": "يُرجى تسجيل الدخول للوصول إلى هذه الصفحة.",
  "signIn.error.MissingCSRF": "انتهت صلاحية نموذج تسجيل الدخول. يُرجى المحاولة مرة أخرى.",
  "signIn.error.Verification":
    "رابط تسجيل الدخول هذا لم يعد صالحًا. ربما استُخدم من قبل أو انتهت صلاحيته.",
  "signIn.error.WebAuthnVerificationError": "تعذّر التحقق من مفتاح المرور. يُرجى المحاولة مرة أخرى.",
  "signIn.error.RateLimited":
    "محاولات تسجيل دخول كثيرة جدًا. يُرجى الانتظار دقيقة ثم المحاولة مرة أخرى.",
  "signIn.error.default": "تعذّر تسجيل الدخول. يُرجى المحاولة مرة أخرى.",
  "signIn.error.addressRefused":
    "لم يُقبل عنوان البريد الإلكتروني هذا. {reason} صحّحه وحاول مرة أخرى.",

  "address.address-required": "أدخل عنوان بريدك الإلكتروني.",
  "address.address-too-long": "عنوان البريد الإلكتروني هذا طويل جدًا.",
  "address.address-at-lookalike": "يحتوي عنوان البريد الإلكتروني على حرف يشبه @ لكنه ليس @.",
  "address.address-quoted": "لا تُقبل عناوين البريد الإلكتروني التي تحتوي على علامات اقتباس.",
  "address.address-one-at": "يحتوي عنوان البريد الإلكتروني على @ واحدة بالضبط.",
  "address.address-local-part": "الجزء الذي يسبق @ يحتوي على أحرف لا يمكن أن يتضمنها عنوان.",
  "address.address-domain": "الجزء الذي يلي @ ليس اسم نطاق (مثل example.com).",

  "signOut.title": "تسجيل الخروج",
  "signOut.question": "هل أنت متأكد من أنك تريد تسجيل الخروج؟",
  "signOut.submit": "تسجيل الخروج",
  "signOut.cancel": "إلغاء",

  "error.Configuration.title": "خطأ في الخادم",
  "error.Configuration.message":
    "هناك مشكلة في إعدادات الخادم. راجع سجلات الخادم لمزيد من المعلومات.",
  "error.AccessDenied.title": "تم رفض الوصول",
  "error.AccessDenied.message": "ليس لديك إذن بتسجيل الدخول.",
  "error.Verification.title": "تعذّر تسجيل الدخول",
  "error.Verification.message":
    "رابط تسجيل الدخول لم يعد صالحًا. ربما استُخدم من قبل أو انتهت صلاحيته.",
  "error.UserBanned.title": "الحساب موقوف",
  "error.UserBanned.message":
    "هذا الحساب موقوف ولا يمكنه تسجيل الدخول. إذا كنت تعتقد أن هذا خطأ، فتواصل مع دعم الموقع.",
  "error.SignOutError.title": "لم يكتمل تسجيل الخروج",
  "error.SignOutError.message":
    "سُجّل خروجك على هذا الجهاز، لكن تعذّر إنهاء جلستك في كل مكان الآن: قد تظل نسخة منها على جهاز آخر مسجّلة الدخول. إذا سجّلت الدخول على جهاز لم يعد تحت سيطرتك، فتواصل مع دعم الموقع.",
  "error.default.title": "حدث خطأ ما",
  "error.default.message": "حدث خطأ غير متوقع. يُرجى المحاولة مرة أخرى.",
  "error.homePage": "الانتقال إلى الصفحة الرئيسية",
  "error.backToSignIn": "العودة إلى تسجيل الدخول",
  "error.details": "التفاصيل (وضع التصحيح)",

  "page.goTo": "الانتقال إلى {host}",

  "verifyRequest.title": "تحقّق من بريدك الإلكتروني",
  "verifyRequest.sent": "أرسلنا إليك رابط تسجيل الدخول.",
  "verifyRequest.openLink":
    "افتح الرابط في الرسالة لإكمال تسجيل الدخول. يمكنك إغلاق علامة التبويب هذه.",
  "verifyRequest.noEmail": "لم تصلك رسالة؟ تحقّق من مجلد الرسائل غير المرغوب فيها أو {tryAgain}.",
  "verifyRequest.tryAgain": "حاول مرة أخرى",
  "verifyRequest.code.label": "أو أدخل الرمز المكوّن من 6 أرقام الموجود في البريد الإلكتروني",
  "verifyRequest.code.submit": "تسجيل الدخول",
  "verifyRequest.code.CodeInvalid": "هذا الرمز غير صحيح. تحقّق من البريد الإلكتروني وحاول مرة أخرى.",
  "verifyRequest.code.CodeExpired":
    "لم يعد بالإمكان استخدام هذا الرمز: انتهت صلاحيته أو استُخدم من قبل أو جُرّب مرات كثيرة. اطلب بريدًا إلكترونيًا جديدًا.",
  "verifyRequest.code.RateLimited": "محاولات كثيرة جدًا. انتظر دقيقة ثم حاول مرة أخرى.",

  "email.subject": "تسجيل الدخول إلى {host}",
  "email.preview": "رابط تسجيل دخولك إلى {host}. تنتهي صلاحيته خلال {lifetime}.",
  "email.pressButton": "اضغط على الزر أدناه لتسجيل الدخول.",
  "email.thisLinkExpires":
    "تنتهي صلاحية هذا الرابط خلال {lifetime} ولا يمكن استخدامه إلا مرة واحدة.",
  "email.theLinkExpires": "تنتهي صلاحية الرابط خلال {lifetime} ولا يمكن استخدامه إلا مرة واحدة.",
  "email.button": "تسجيل الدخول",
  "email.orCode": "أو أدخل هذا الرمز:",
  "email.copyLink": "إذا لم يعمل الزر، فانسخ هذا الرابط إلى متصفحك:",
  "email.openLink": "افتح هذا الرابط لتسجيل الدخول:",
  "email.ignore": "إذا لم تطلب تسجيل الدخول، فيمكنك تجاهل هذه الرسالة بأمان.",
  "email.neverForward": "لا تعِد توجيهها أبدًا: يمكن لأي شخص لديه الرابط تسجيل الدخول باسمك.",
};
