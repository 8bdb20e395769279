// The default theme, with wide pages for the generated tables (see `wide-page` in config.mts).
import DefaultTheme from "vitepress/theme";
import "./custom.css";

export default DefaultTheme;
