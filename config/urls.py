"""URLs: the admin, the games pages and API, the API schema and docs, and the
league's pages when the league app is present."""

from importlib.util import find_spec

from django.contrib import admin
from django.templatetags.static import static
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    # sign in and out for organisers (the pages' "Sign in" link; the admin keeps its own)
    path("accounts/login/", auth_views.LoginView.as_view(template_name="registration/login.html",
                                                         redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("games.api_urls")),
    path("games/", include("games.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # the language switch (set_language)
    # the browser tables' texts in the reader's language (gettext in static/games)
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # browsers ask for /favicon.ico whatever the page says: the site's icon
    path("favicon.ico", RedirectView.as_view(url=static("site/favicon.svg"), permanent=True)),
]

# The league app mounts itself at the site root ("") when it exists: it owns
# the public pages (standings, players, clubs) and may add "api/league/" etc.
if find_spec("league") is not None and find_spec("league.urls") is not None:
    urlpatterns.append(path("", include("league.urls")))
else:
    urlpatterns.append(path("", RedirectView.as_view(url="/games/", permanent=False)))
