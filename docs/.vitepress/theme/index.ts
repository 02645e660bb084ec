// VitePress's default theme, with the site's own styles (docs/.vitepress/theme/style.css).
import DefaultTheme from "vitepress/theme";
import "./style.css";

export default DefaultTheme;
